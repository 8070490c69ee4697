package agent

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files of testdata/events")

// TestEventsGolden parses every event of every agent in testdata/events
// (named <agent>-<event>[-variant].json, their fields as each agent
// writes them: see docs/decisions/0710-hook-events.md for their sources)
// and compares the op, fields and printed answer with the .golden file.
func TestEventsGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/events/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no event files: %v", err)
	}
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(base, func(t *testing.T) {
			name, _, _ := strings.Cut(base, "-")
			a, err := ParseName(name)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := describe(a, data)
			golden := strings.TrimSuffix(f, ".json") + ".golden"
			if *rewrite {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -rewrite)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", golden, diff)
			}
		})
	}
}

// describe is the golden form of one event: what Parse made of it and
// what the hook would print if recall had text for it.
func describe(a Name, data []byte) string {
	ev, err := Parse(a, data)
	if err != nil {
		return fmt.Sprintf("error: %s\nanswer: (nothing)\n", errName(err))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "op: %s\nhook: %s\nsession: %s\ncwd: %s\nprompt: %q\ntools: %q\nsubagent: %v\n",
		ev.Op, ev.Hook, ev.SessionID, ev.Cwd, ev.Prompt, ev.Tools, ev.Subagent)
	if out := Answer(ev, "# Saved memories\n<x> & \"q\""); out != nil {
		fmt.Fprintf(&b, "answer: %s", out)
	} else {
		b.WriteString("answer: (nothing)\n")
	}
	return b.String()
}

func errName(err error) string {
	for _, e := range []error{ErrTooLarge, ErrMalformed, ErrMissingField, ErrUnknownAgent} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	return "unexpected: " + err.Error()
}

func TestParseRejects(t *testing.T) {
	big := `{"session_id":"s","hook_event_name":"PostToolUse","tool_response":"` + strings.Repeat("x", MaxEventBytes) + `"}`
	tests := []struct {
		name string
		a    Name
		data string
		want error
	}{
		{"empty", Claude, "", ErrMalformed},
		{"array", Claude, "[]", ErrMalformed},
		{"null", Claude, "null", ErrMissingField},
		{"truncated", Qwen, `{"session_id":"s","hook_event_name":"Stop"`, ErrMalformed},
		{"trailing garbage", Gemini, `{"session_id":"s","hook_event_name":"AfterAgent"} x`, ErrMalformed},
		{"no hook name", Gemini, `{"session_id":"s"}`, ErrMissingField},
		{"too large", Claude, big, ErrTooLarge},
		{"unknown agent", Name("codex"), `{"session_id":"s","hook_event_name":"Stop"}`, ErrUnknownAgent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.a, []byte(tt.data))
			if !errors.Is(err, tt.want) {
				t.Errorf("Parse error = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestAnswerOnlyAtDeliveryPoints: whatever the text, only a query or a
// tool result prints anything; Stop/AfterAgent never does (Claude Code
// would run the model again).
func TestAnswerOnlyAtDeliveryPoints(t *testing.T) {
	for op := OpNone; op <= OpWarm; op++ {
		for _, sub := range []bool{false, true} {
			got := Answer(Event{Op: op, Hook: "X", Subagent: sub}, "text") != nil
			want := !sub && (op == OpQuery || op == OpToolResult)
			if got != want {
				t.Errorf("Answer(op %v, subagent %v) printed %v, want %v", op, sub, got, want)
			}
		}
	}
	if Answer(Event{Op: OpQuery, Hook: "UserPromptSubmit"}, "") != nil {
		t.Error("Answer with empty text printed something")
	}
}
