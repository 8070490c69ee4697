//go:build memrecall_mutant

package fsm

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// mutantsBuilt switches the deliberate defects' checks on; mutant_off.go
// declares it false for production builds.
const mutantsBuilt = true

// ErrUnknownMutant is returned by NewMutantSession for a name not in
// Mutants.
var ErrUnknownMutant = errors.New("fsm: unknown mutant")

// mutants names the deliberate defects for the property suite's mutation
// test (props/fsm_mutants_test.go): each must make a property fail.
func mutants() map[string]mutation {
	return map[string]mutation{
		"no_exclusion":         mutNoExclusion,
		"no_stale_check":       mutNoStaleCheck,
		"no_fast_cap":          mutNoFastCap,
		"no_selection_cap":     mutNoSelectionCap,
		"reset_keeps_surfaced": mutResetKeepsSurfaced,
		"terminal_reopens":     mutTerminalReopens,
		"initial_twice":        mutInitialTwice,
		"discard_counts_docs":  mutDiscardCountsDocs,
	}
}

// Mutants lists the mutant names, sorted.
func Mutants() []string {
	return slices.Sorted(maps.Keys(mutants()))
}

// NewMutantSession returns a session with the named defect; the empty
// name gives a correct session.
func NewMutantSession(name string) (*Session, error) {
	s := NewSession()
	if name == "" {
		return s, nil
	}
	m, ok := mutants()[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownMutant, name)
	}
	s.mut = m
	return s, nil
}
