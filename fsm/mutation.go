package fsm

// mutation is a set of deliberate defects. The property suite builds
// sessions with one switched on (see mutant.go, compiled only with the
// memrecall_mutant build tag) and fails unless its properties catch it.
// In a normal build nothing can set it.
type mutation uint8

const (
	// mutNoExclusion forgets the surfaced set when picking documents.
	mutNoExclusion mutation = 1 << iota
	// mutNoStaleCheck applies events of old plans to the current plan.
	mutNoStaleCheck
	// mutNoFastCap delivers the whole ranking as the fast result.
	mutNoFastCap
	// mutResetKeepsSurfaced keeps the surfaced set across a reset.
	mutResetKeepsSurfaced
)

func (m mutation) has(x mutation) bool { return m&x != 0 }
