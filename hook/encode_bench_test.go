package hook

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/daemon/wire"
)

// BenchmarkEncodeEvent is the hook's work on an event between reading it
// and dialling: "encode" is what Run does (wire.Encode validates while it
// encodes); "valid+encode" is the peer, what it did before (json.Valid
// over the event first, then the same encoding). Events: a prompt, and a
// PostToolUse carrying 500 KB of tool output.
//
//	go test -run XXX -bench EncodeEvent ./hook
func BenchmarkEncodeEvent(b *testing.B) {
	events := map[string]string{
		"prompt":     `{"session_id":"s","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"deploy checklist for billing-api"}`,
		"tool-500KB": `{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"` + strings.Repeat("x", 500_000) + `"}}`,
	}
	for _, name := range []string{"prompt", "tool-500KB"} {
		ev := []byte(events[name])
		req := wire.Request{Version: wire.Version, Op: wire.OpEvent, Agent: "claude", Event: ev, Env: map[string]string{"HOME": "/h"}, BudgetMillis: 480}
		b.Run(name+"/encode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(ev)))
			for b.Loop() {
				if _, err := wire.Encode(req); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/valid+encode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(ev)))
			for b.Loop() {
				if !json.Valid(ev) {
					b.Fatal("invalid")
				}
				if _, err := wire.Encode(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
