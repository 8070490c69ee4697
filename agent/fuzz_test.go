package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input panics Parse; whatever it accepts has a session and
// a hook name, an op in range, and an answer that is one JSON object (or
// nothing) naming the event it answers.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/events/*.json")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(0, data)
			f.Add(2, data)
		}
	}
	f.Fuzz(func(t *testing.T, which int, data []byte) {
		names := []Name{Claude, Gemini, Qwen}
		a := names[((which%3)+3)%3]
		ev, err := Parse(a, data)
		if err != nil {
			return
		}
		if ev.SessionID == "" || ev.Hook == "" || ev.Op > OpWarm {
			t.Fatalf("accepted event without its fields: %+v", ev)
		}
		if ev.Op == OpQuery && ev.Prompt == "" {
			t.Fatalf("query with an empty prompt: %+v", ev)
		}
		out := Answer(ev, "some text")
		if out == nil {
			return
		}
		var got struct {
			Specific struct {
				Event   string `json:"hookEventName"`
				Context string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal(out, &got); err != nil || got.Specific.Event != ev.Hook || got.Specific.Context != "some text" {
			t.Fatalf("answer %q does not round-trip: %v", out, err)
		}
	})
}
