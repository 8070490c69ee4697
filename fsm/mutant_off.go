//go:build !memrecall_mutant

package fsm

// mutantsBuilt is false in every build without the memrecall_mutant tag:
// mutation.has is then constant false and the compiler drops every
// deliberate defect with the branch that checks it.
const mutantsBuilt = false
