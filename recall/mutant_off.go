//go:build !memrecall_mutant

package recall

// mutantsBuilt is false in every build without the memrecall_mutant tag:
// fault.has is then constant false, the guarded calls into fault's methods
// are dropped, and no deliberate defect is in the binary.
const mutantsBuilt = false
