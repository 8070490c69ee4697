//go:build memrecall_mutant

package props

import (
	"os"
	"slices"
	"testing"

	"github.com/memrecall/memrecall/recall"
)

func newSuiteEngine(opts recall.Options) (*recall.Engine, error) {
	return recall.NewMutant(opts, os.Getenv(engineMutantEnv))
}

// TestEngineMutantNames keeps the mutation runner's list complete.
func TestEngineMutantNames(t *testing.T) {
	if got := recall.Mutants(); !slices.Equal(got, engineMutantNames()) {
		t.Errorf("recall.Mutants() = %v, the runner knows %v", got, engineMutantNames())
	}
}
