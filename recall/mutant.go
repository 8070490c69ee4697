//go:build memrecall_mutant

package recall

// Mutant names one deliberate defect of the engine. It exists only in
// builds with the memrecall_mutant tag, for the property suite's mutation
// test (props/engine_mutants_test.go): each mutant must make at least one
// property fail.
type Mutant uint8

// The mutants.
const (
	// MutantStaleSettle applies a replaced plan's late settle to the
	// current plan.
	MutantStaleSettle Mutant = Mutant(faultStaleSettle)
	// MutantExtraDoc renders one document more than the fsm delivered.
	MutantExtraDoc Mutant = Mutant(faultExtraDoc)
	// MutantRepeatFast re-injects the fast documents in the refined
	// delivery.
	MutantRepeatFast Mutant = Mutant(faultRepeatFast)
	// MutantIgnoreCeiling makes Initial wait for the selector past the
	// ceiling.
	MutantIgnoreCeiling Mutant = Mutant(faultIgnoreCeiling)
)

// Mutants lists every mutant.
func Mutants() []Mutant {
	return []Mutant{MutantStaleSettle, MutantExtraDoc, MutantRepeatFast, MutantIgnoreCeiling}
}

// String names the mutant.
func (m Mutant) String() string {
	switch m {
	case MutantStaleSettle:
		return "stale_settle"
	case MutantExtraDoc:
		return "extra_doc"
	case MutantRepeatFast:
		return "repeat_fast"
	case MutantIgnoreCeiling:
		return "ignore_ceiling"
	}
	return "mutant"
}

// NewMutant is New with the defect m switched on.
func NewMutant(opts Options, m Mutant) *Engine { return newEngine(opts, fault(m)) }
