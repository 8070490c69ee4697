//go:build memrecall_mutant

package recall

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// mutantsBuilt switches the deliberate defects' checks on; mutant_off.go
// declares it false for production builds.
const mutantsBuilt = true

// ErrUnknownMutant is returned by NewMutant for a name not in Mutants.
var ErrUnknownMutant = errors.New("recall: unknown mutant")

// mutants names the engine's deliberate defects for the property suite's
// mutation test (props/engine_mutants_test.go): each must make a property
// of the engine suite fail. They exist only in builds with the
// memrecall_mutant tag.
func mutants() map[string]fault {
	return map[string]fault{
		"stale_settle":   faultStaleSettle,
		"extra_doc":      faultExtraDoc,
		"repeat_fast":    faultRepeatFast,
		"ignore_ceiling": faultIgnoreCeiling,
	}
}

// Mutants lists the mutant names, sorted.
func Mutants() []string {
	return slices.Sorted(maps.Keys(mutants()))
}

// NewMutant is New with the named defect switched on; the empty name gives
// a correct engine.
func NewMutant(opts Options, name string) (*Engine, error) {
	if name == "" {
		return New(opts), nil
	}
	f, ok := mutants()[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownMutant, name)
	}
	return newEngine(opts, f, warmUpRelease), nil
}
