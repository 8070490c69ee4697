package agent

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/memrecall/memrecall/daemon/wire"
)

// MaxEventBytes bounds one hook event. Events are a few hundred bytes
// except PostToolUse, which carries the tool's output; a larger event is
// refused whole (ErrTooLarge) rather than parsed in part, and the hook
// prints nothing for it. It is the protocol's bound, wire.MaxEventBytes,
// which the hook also reads stdin up to.
const MaxEventBytes = wire.MaxEventBytes

// Sentinel errors of Parse. A hook that gets any of them prints nothing.
var (
	// ErrTooLarge: the event is longer than MaxEventBytes.
	ErrTooLarge = errors.New("agent: hook event too large")
	// ErrMalformed: the event is not one JSON object of the expected shape.
	ErrMalformed = errors.New("agent: malformed hook event")
	// ErrMissingField: session_id or hook_event_name is missing or empty.
	ErrMissingField = errors.New("agent: hook event lacks a required field")
)

// Op is what a hook event asks of the recall lifecycle.
type Op uint8

const (
	// OpNone changes nothing and delivers nothing: an event recall does
	// not use, a subagent's event, Qwen Code's empty continuation prompt.
	OpNone Op = iota
	// OpQuery starts the plan of a new user query and marks its initial
	// delivery point (Query then Initial).
	OpQuery
	// OpToolResult marks a tool-result delivery point.
	OpToolResult
	// OpEnd ends the turn. The hook prints nothing for it: Claude Code
	// runs the model again when a Stop hook gives context.
	OpEnd
	// OpReset starts the conversation afresh (/clear, compaction): every
	// document may be delivered again.
	OpReset
	// OpSessionEnd ends the session: its plan and conversation are dropped.
	OpSessionEnd
	// OpWarm opens the session without delivering anything (SessionStart
	// at startup or resume), so the memory tree is read and indexed
	// before the first prompt arrives.
	OpWarm
)

var opNames = [...]string{"none", "query", "tool_result", "end", "reset", "session_end", "warm"}

// String returns the op's lower-case name.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Event is one hook event as the recall lifecycle needs it.
type Event struct {
	// Agent is the agent that sent it.
	Agent Name
	// Hook is hook_event_name as the agent spelled it; the answer names it.
	Hook string
	// Op is what the event asks of the lifecycle.
	Op Op
	// SessionID is the agent's session; one plan is open per session.
	SessionID string
	// Cwd is the agent's working directory, from which its memory roots
	// are found.
	Cwd string
	// Prompt is the user's message (OpQuery only).
	Prompt string
	// Tools names the tools whose results this event reports, in order
	// (OpToolResult only).
	Tools []string
	// Subagent is set for events from a subagent (Qwen Code's agent_id),
	// which deliver nothing.
	Subagent bool
}

// rawEvent holds the stdin fields of every agent's hook events that recall
// reads. Fields it does not name (tool_input, tool_response, transcript
// paths) are skipped by the decoder without being kept.
type rawEvent struct {
	SessionID string `json:"session_id"`
	Hook      string `json:"hook_event_name"`
	Cwd       string `json:"cwd"`
	Prompt    string `json:"prompt"`
	Source    string `json:"source"`
	ToolName  string `json:"tool_name"`
	AgentID   string `json:"agent_id"`
	ToolCalls []struct {
		ToolName string `json:"tool_name"`
		Name     string `json:"name"`
	} `json:"tool_calls"`
}

// Parse reads one hook event of agent a and maps it to its lifecycle op.
// It is pure: bytes in, a value out. An event recall does not use is not
// an error: it parses to OpNone.
func Parse(a Name, data []byte) (Event, error) {
	a, err := ParseName(string(a))
	if err != nil {
		return Event{}, fmt.Errorf("agent: %w", err)
	}
	if len(data) > MaxEventBytes {
		return Event{}, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(data), MaxEventBytes)
	}
	var raw rawEvent
	if err := json.Unmarshal(data, &raw); err != nil {
		return Event{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if raw.SessionID == "" || raw.Hook == "" {
		return Event{}, fmt.Errorf("%w: session_id and hook_event_name are required", ErrMissingField)
	}
	ev := Event{Agent: a, Hook: raw.Hook, SessionID: raw.SessionID, Cwd: raw.Cwd, Subagent: raw.AgentID != ""}
	ev.Op = mapOp(a, &raw)
	if ev.Subagent {
		ev.Op = OpNone
	}
	switch ev.Op {
	case OpQuery:
		ev.Prompt = raw.Prompt
	case OpToolResult:
		if raw.ToolName != "" {
			ev.Tools = append(ev.Tools, raw.ToolName)
		}
		for _, c := range raw.ToolCalls {
			if n := c.ToolName + c.Name; n != "" {
				ev.Tools = append(ev.Tools, n)
			}
		}
	}
	return ev, nil
}

// mapOp is the event table of docs/decisions/0710-hook-events.md.
func mapOp(a Name, raw *rawEvent) Op {
	query, tool, end := "UserPromptSubmit", "PostToolUse", "Stop"
	switch a {
	case Gemini:
		query, tool, end = "BeforeAgent", "AfterTool", "AfterAgent"
	case Qwen:
		if raw.Hook == "PostToolBatch" {
			return OpToolResult
		}
	}
	switch raw.Hook {
	case query:
		// Qwen Code sends UserPromptSubmit with an empty prompt on every
		// tool continuation: that is not a new query.
		if raw.Prompt == "" {
			return OpNone
		}
		return OpQuery
	case tool:
		return OpToolResult
	case end:
		return OpEnd
	case "SessionStart":
		if raw.Source == "clear" || raw.Source == "compact" {
			return OpReset
		}
		return OpWarm
	case "SessionEnd":
		return OpSessionEnd
	}
	return OpNone
}
