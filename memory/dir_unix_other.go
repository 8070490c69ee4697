//go:build unix && !linux

package memory

import "syscall"

// nonblockFlags keep an open of a FIFO swapped in from waiting for a
// writer; the caller's fstat then rejects it.
const nonblockFlags = syscall.O_NONBLOCK
