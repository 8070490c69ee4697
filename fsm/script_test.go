package fsm_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/internal/scripttest"
)

// rewrite regenerates the expected output of the scenario scripts.
var rewrite = flag.Bool("rewrite", false, "rewrite the golden files: the scripts in fsm/testdata/*.txt and the lifecycle diagrams")

// TestScripts runs every scenario script in testdata. A script is a list
// of commands in the cockroachdb/datadriven style:
//
//	# comment
//	<command> key=value ...
//	----
//	<expected output, up to the next blank line>
//
// A command is an event as fsm.ParseEvent reads it (the trigger's name and
// key=value fields), or surfaced, which prints the session's surfaced
// set. A plan event without plan= goes to the current plan.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenario scripts in testdata")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			s := fsm.NewSession()
			scripttest.Run(t, file, *rewrite, func(cmd string, _ []string) ([]string, error) {
				return runCommand(s, cmd)
			})
		})
	}
}

// runCommand parses one script command, steps it and renders the output.
// A plan event without plan= goes to the current plan.
func runCommand(s *fsm.Session, line string) ([]string, error) {
	if strings.TrimSpace(line) == "surfaced" {
		return []string{"surfaced: " + joinDocs(s.SurfacedDocs())}, nil
	}
	ev, err := fsm.ParseEvent(line)
	if err != nil {
		return nil, err
	}
	if ev.Plan == 0 && !strings.Contains(line, "plan=") {
		ev.Plan = s.Current()
	}
	return renderOutput(s.Step(ev)), nil
}

func joinDocs(docs []fsm.DocID) string {
	if len(docs) == 0 {
		return "(none)"
	}
	parts := make([]string, len(docs))
	for i, d := range docs {
		parts[i] = string(d)
	}
	return strings.Join(parts, " ")
}

// renderOutput prints an Output in the scripts' form.
func renderOutput(o fsm.Output) []string {
	var lines []string
	if o.Dropped {
		lines = append(lines, "dropped state="+o.State.String())
	} else {
		lines = append(lines, "plan="+strconv.FormatUint(uint64(o.Plan), 10)+" state="+o.State.String())
	}
	if !o.Deliver.Empty() {
		lines = append(lines, fmt.Sprintf("inject %s@%s %s: %s", o.Deliver.Phase, o.Deliver.Point, o.Deliver.Strategy, joinDocs(o.Deliver.Docs)))
	}
	if o.Closed != 0 {
		lines = append(lines, fmt.Sprintf("closed plan=%d", o.Closed))
	}
	for _, e := range o.Telemetry {
		lines = append(lines, e.String())
	}
	return lines
}

// TestEveryRuleHasAScript keeps the scripts an executable spec: each rule
// of spec §5 is named by a "# rule:" line of at least one script.
func TestEveryRuleHasAScript(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string][]string{}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(raw), "\n") {
			if rest, ok := strings.CutPrefix(l, "# rule:"); ok {
				for _, r := range strings.Fields(rest) {
					covered[r] = append(covered[r], filepath.Base(file))
				}
			}
		}
	}
	for i := 1; i <= 7; i++ {
		rule := fmt.Sprintf("5.%d", i)
		if len(covered[rule]) == 0 {
			t.Errorf("spec §%s has no scenario script", rule)
		}
	}
}
