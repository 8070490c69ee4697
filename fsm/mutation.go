package fsm

// mutation is a set of deliberate defects. The property suite builds
// sessions with one switched on (NewMutantSession, compiled only with the
// memrecall_mutant build tag) and fails unless its properties catch it.
// In a normal build nothing can set it, and every check of it is one
// predictable branch.
type mutation uint16

const (
	// mutNoExclusion forgets the surfaced set when picking documents.
	mutNoExclusion mutation = 1 << iota
	// mutNoStaleCheck applies events of old plans to the current plan.
	mutNoStaleCheck
	// mutNoFastCap delivers the whole ranking as the fast result.
	mutNoFastCap
	// mutNoSelectionCap keeps every selected document, beyond five.
	mutNoSelectionCap
	// mutResetKeepsSurfaced keeps the surfaced set across a reset.
	mutResetKeepsSurfaced
	// mutTerminalReopens lets plan events act on an ended plan.
	mutTerminalReopens
	// mutInitialTwice lets a second initial point deliver again.
	mutInitialTwice
	// mutDiscardCountsDocs reports the lost remainder as the document
	// count of a discard.
	mutDiscardCountsDocs
)

func (m mutation) has(x mutation) bool { return m&x != 0 }
