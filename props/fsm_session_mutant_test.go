//go:build memrecall_mutant

package props

import (
	"os"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/fsm"
)

func newFSMSession(t *rapid.T) *fsm.Session {
	s, err := fsm.NewMutantSession(os.Getenv(fsmMutantEnv))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFSMMutantNames keeps the mutation runner's list complete.
func TestFSMMutantNames(t *testing.T) {
	if got := fsm.Mutants(); !slices.Equal(got, fsmMutantNames()) {
		t.Errorf("fsm.Mutants() = %v, the runner knows %v", got, fsmMutantNames())
	}
}
