//go:build !unix

package memory

// nonblockFlags: no FIFOs live in the file namespace here.
const nonblockFlags = 0
