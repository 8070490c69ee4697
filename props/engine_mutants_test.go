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

// TestEngineMutantsAreCaught shows the engine properties can fail: it runs
// TestEngineLifecycle once per deliberate defect of the engine (built in
// only with the memrecall_mutant tag, see recall/mutant.go) and fails if
// any mutant survives — twice per mutant: with the model, and with the
// model-free invariants alone. It builds and runs the suite in
// subprocesses, which takes minutes: it is a deep suite
// (MEMRECALL_DEEP=1, run by .ci/run), and -short skips it too.
func TestEngineMutantsAreCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in subprocesses")
	}
	testenv.SkipUnlessDeep(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the mutation test needs the go command: %v", err)
	}
	run := func(mutant, pattern string, invariantsOnly bool) (string, error) {
		cmd := exec.Command(goTool, "test", "-tags", "memrecall_mutant", "-count=1", "-run", pattern, ".")
		only := "0"
		if invariantsOnly {
			only = "1"
		}
		cmd.Env = append(os.Environ(),
			engineMutantEnv+"="+mutant,
			engineInvariantsOnlyEnv+"="+only,
			"RAPID_CHECKS=6000", // 600 engine sessions; the rarest catch (stale_settle, invariants only) needs about 50 on average
			"RAPID_NOFAILFILE=1",
		)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	t.Run("list", func(t *testing.T) {
		if out, err := run("", "^(TestEngineMutantNames|TestEngineLifecycle)$", false); err != nil {
			t.Fatalf("the mutant build fails without a mutant: %v\n%s", err, out)
		}
	})
	for _, m := range engineMutantNames() {
		for _, invariantsOnly := range []bool{false, true} {
			name := m
			if invariantsOnly {
				name += "/invariants_only"
			}
			t.Run(name, func(t *testing.T) {
				out, err := run(m, "^TestEngineLifecycle$", invariantsOnly)
				if err == nil {
					t.Fatalf("mutant %s survived the engine property suite:\n%s", name, out)
				}
				if !strings.Contains(out, "--- FAIL: TestEngineLifecycle") || !strings.Contains(out, "host calls") {
					t.Fatalf("mutant %s: the run failed without a property failure and its host-call log:\n%s", name, out)
				}
				t.Logf("caught: %s", firstLine(out, "[rapid] failed"))
			})
		}
	}
}
