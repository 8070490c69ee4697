//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/e2e/fakemodel"
)

// toolScript is the tool-using turn of every measurement: the model thinks
// for 4 s, calls the shell tool once ("ls"), then answers; any recall
// selector answers after 2 s, so its choice exists before the tool result
// goes back.
func toolScript(a *Agent, pick []string) fakemodel.Script {
	return fakemodel.Script{
		Tool:        &fakemodel.ToolCall{Name: a.ShellTool, Input: map[string]any{"command": "ls"}},
		ToolDelay:   4 * time.Second,
		Final:       "All done.",
		Select:      fakemodel.SelectByName(pick...),
		SelectDelay: 2 * time.Second,
	}
}

// freeScript is the tool-free turn: the model answers at once.
func freeScript(pick []string) fakemodel.Script {
	return fakemodel.Script{
		Final:       "All done.",
		Select:      fakemodel.SelectByName(pick...),
		SelectDelay: 2 * time.Second,
	}
}

// TestNativeBaseline pins what each agent delivers on its own, with no
// memrecall hook, on a tool-using turn over the example tree: Claude Code
// and Gemini CLI put the MEMORY.md index in front of the model and no
// topic body, before or after the tool result; Qwen Code runs its own
// selector and delivers at most its two fast documents first and the
// selector's remainder after the tool result.
func TestNativeBaseline(t *testing.T) {
	for _, a := range AllAgents() {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			requireAgent(t, a)
			sc := scenariosFor(t, a)[0]
			w := newWorld(t, a, "billing-api")
			res := do(t, Run{World: w, Prompt: sc.prompt, Tools: true, Script: toolScript(a, sc.pick)})
			d := Measure(res.Requests, docs(t, w), IndexMark(w.ProjectMemory))
			t.Logf("%s native: %+v", a.Name, d)
			if !d.ToolTurn {
				t.Fatalf("no main request carried the tool result: %+v", d)
			}
			// The error texts the fail-open tests look for never occur
			// natively, so finding one there means memrecall put it there.
			checkNoErrorText(t, res)
			switch a.Name {
			case "claude", "gemini":
				want := Delivery{Main: d.Main, Index: true, ToolTurn: true, AfterTool: []string{}}
				if diff := cmp.Diff(want, d); diff != "" {
					t.Errorf("native delivery (-want +got):\n%s", diff)
				}
			case "qwen":
				if len(d.First) > 2 {
					t.Errorf("first request holds %d documents, want the 2 fast ones at most: %v", len(d.First), d.First)
				}
				all := append(append([]string{}, d.First...), d.AfterTool...)
				if !containsAll(all, sc.pick...) {
					t.Errorf("first %v + after tool %v miss the selector's picks %v", d.First, d.AfterTool, sc.pick)
				}
			}
		})
	}
}

// TestHostsTable measures, for every agent, prompt and kind of turn, the
// documents in front of the model natively and with memrecall, and writes
// the table into docs/hosts.md. It runs only when MEMRECALL_E2E_REWRITE=1
// (it starts dozens of agents); the assertions of the same behaviour are
// the other tests of this package.
func TestHostsTable(t *testing.T) {
	if os.Getenv("MEMRECALL_E2E_REWRITE") != "1" {
		t.Skip("set MEMRECALL_E2E_REWRITE=1 to measure and rewrite the table in docs/hosts.md")
	}
	// MEMRECALL_E2E_TABLE_AGENTS=claude,gemini re-measures only those
	// agents and keeps the other agents' rows of the current table.
	var only []string
	if v := os.Getenv("MEMRECALL_E2E_TABLE_AGENTS"); v != "" {
		only = strings.Split(v, ",")
	}
	var rows []Row
	var names, measured []string
	for _, a := range AllAgents() {
		names = append(names, a.Name)
		if only != nil && !slices.Contains(only, a.Name) {
			continue
		}
		measured = append(measured, a.Name)
		for _, mode := range []string{"native", "memrecall"} {
			for _, sc := range scenariosFor(t, a) {
				for _, tools := range []bool{false, true} {
					rows = append(rows, measureRow(t, a, mode, sc, tools))
				}
			}
		}
	}
	path := filepath.Join(repoRoot(t), "docs", "hosts.md")
	err := RewriteTable(path, func(old string) string {
		table := RenderTable(rows)
		if only != nil {
			table = MergeTable(old, table, names, measured)
		}
		t.Logf("\n%s", table)
		return table
	})
	if err != nil {
		t.Fatal(err)
	}
}

// measureRow runs one turn and reads its delivery; a turn that cannot run
// becomes a row that says why.
func measureRow(t *testing.T, a *Agent, mode string, sc scenario, tools bool) Row {
	t.Helper()
	row := Row{Agent: a.Name, Mode: mode, Prompt: sc.prompt, Tools: tools}
	if _, err := a.Command(AgentsDir()); err != nil {
		row.Err = "agent not installed"
		return row
	}
	w := newWorld(t, a, "billing-api")
	run := Run{World: w, Prompt: sc.prompt, Tools: tools, Script: freeScript(sc.pick)}
	if tools {
		run.Script = toolScript(a, sc.pick)
	}
	if mode == "memrecall" {
		mr := memrecallFor(t, w, sc.pick)
		defer mr.Close()
		run.Env = mr.Env
	}
	res, err := run.Do(t.Context())
	if err != nil {
		row.Err = err.Error()
		return row
	}
	if res.Err != nil {
		row.Err = "agent failed"
		t.Logf("%s %s %q: %v\n%s", a.Name, mode, sc.prompt, res.Err, tail(res.Stderr, 2000))
		return row
	}
	row.Delivery = Measure(res.Requests, docs(t, w), IndexMark(w.ProjectMemory))
	t.Logf("%s %s tools=%v %q: %+v (%v)", a.Name, mode, tools, sc.prompt, row.Delivery, res.Wall.Round(time.Millisecond))
	return row
}
