package fsm

// mutation is a set of deliberate defects. The property suite builds
// sessions with one switched on (NewMutantSession, compiled only with the
// memrecall_mutant build tag) and fails unless its properties catch it.
//
// A production build has no mutant branch: every check is has, and has
// is false by a constant (mutantsBuilt, declared in mutant.go for the tag
// and in mutant_off.go without it), so the compiler folds each check away
// with the code it guards. .ci/run checks the built binary.
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

// has reports whether defect x is switched on; always false, at compile
// time, without the memrecall_mutant tag.
func (m mutation) has(x mutation) bool { return mutantsBuilt && m&x != 0 }
