//go:build !memrecall_mutant

package props

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/internal/testenv"
)

// TestFSMMutantsAreCaught shows the fsm properties can fail: it runs
// TestFSMLifecycle once per deliberate defect of fsm (built in only with
// the memrecall_mutant tag, see fsm/mutant.go) and fails if any mutant
// survives, or if a failing run does not print its event script. It
// builds and runs the suite in subprocesses, which takes minutes: it is a
// deep suite (MEMRECALL_DEEP=1, run by .ci/run), and -short skips it too.
func TestFSMMutantsAreCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in subprocesses")
	}
	testenv.SkipUnlessDeep(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the mutation test needs the go command: %v", err)
	}
	run := func(t *testing.T, mutant, pattern string, invariantsOnly bool) (string, error) {
		cmd := exec.Command(goTool, "test", "-tags", "memrecall_mutant", "-count=1", "-run", pattern, ".")
		only := "0"
		if invariantsOnly {
			only = "1"
		}
		cmd.Env = append(os.Environ(),
			fsmMutantEnv+"="+mutant,
			fsmInvariantsOnlyEnv+"="+only,
			"RAPID_CHECKS=2000", // a mutant that needs more is a weak property
			"RAPID_NOFAILFILE=1",
		)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	t.Run("list", func(t *testing.T) {
		if out, err := run(t, "", "^(TestFSMMutantNames|TestFSMLifecycle)$", false); err != nil {
			t.Fatalf("the mutant build fails without a mutant: %v\n%s", err, out)
		}
	})
	// Each mutant must be caught twice: by the whole suite, and by the
	// model-free invariants alone (so the model is not the only judge).
	for _, m := range fsmMutantNames() {
		for _, invariantsOnly := range []bool{false, true} {
			name := m
			if invariantsOnly {
				name += "/invariants_only"
			}
			t.Run(name, func(t *testing.T) {
				out, err := run(t, m, "^TestFSMLifecycle$", invariantsOnly)
				if err == nil {
					t.Fatalf("mutant %s survived the fsm property suite:\n%s", name, out)
				}
				if !strings.Contains(out, "--- FAIL: TestFSMLifecycle") || !strings.Contains(out, "event script:") {
					t.Fatalf("mutant %s: the run failed without a property failure and its script:\n%s", name, out)
				}
				t.Logf("caught: %s", firstLine(out, "[rapid] failed"))
			})
		}
	}
}

func firstLine(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, prefix); i >= 0 {
			return strings.TrimSpace(l[i:])
		}
	}
	return ""
}
