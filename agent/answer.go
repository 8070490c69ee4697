package agent

import "encoding/json"

// Answer returns what the hook prints for ev when recall has text to
// inject: the agent's JSON answer {"hookSpecificOutput": {"hookEventName":
// ..., "additionalContext": text}} and a newline. It returns nil — print
// nothing — for empty text and for every op that must not carry context:
// only OpQuery and OpToolResult do. In particular a Stop (AfterAgent)
// answer would make Claude Code run the model again.
func Answer(ev Event, text string) []byte {
	if text == "" || (ev.Op != OpQuery && ev.Op != OpToolResult) || ev.Subagent {
		return nil
	}
	out, err := json.Marshal(answer{Specific: specific{Event: ev.Hook, Context: text}})
	if err != nil {
		return nil // cannot happen for two strings; fail open all the same
	}
	return append(out, '\n')
}

type answer struct {
	Specific specific `json:"hookSpecificOutput"`
}

type specific struct {
	Event   string `json:"hookEventName"`
	Context string `json:"additionalContext"`
}

// PromptBudget is the byte budget of one injected text for agent a, for
// recall.Options.MaxPromptBytes (0: the engine's default, 16 KiB).
//
// Claude Code keeps at most 10,000 characters of one hook context whole
// and turns a longer one into a file and a 2 KB preview. A UTF-8 byte
// count is never smaller than the UTF-16 length JavaScript measures, so
// 8,000 bytes stay under 10,000 characters with 2,000 to spare for any
// wrapping the agent adds. Qwen Code keeps 1 MiB; Gemini CLI appends the
// text as it is. See docs/decisions/0711-budgets.md.
func PromptBudget(a Name) int {
	if a == Claude {
		return 8000
	}
	return 0
}
