package recall

import (
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/telemetry"
)

// Injection is memory text for the host to put into the prompt it is
// building: before the user's message for Plan.Initial, after the tool
// responses for Plan.ToolResult. The zero Injection is empty.
type Injection struct {
	// Text is the rendered memory section: a heading, one line on how to
	// use it, then each document's title, scope-relative path, age,
	// description and fenced body. At most MaxPromptBytes.
	Text string
	// Docs are the documents in Text, in order: at most MaxPromptDocs,
	// at most MaxFastDocs for a fast delivery. They count as surfaced and
	// are never injected again in this session before a reset.
	Docs []memory.ID
	// Phase says whether this is the fast (deterministic) delivery or
	// the plan's refined result.
	Phase telemetry.Phase
	// Strategy is how the documents were chosen: heuristic for a fast
	// delivery or a selector fallback, model for the selector's answer.
	Strategy telemetry.Strategy
}

// Empty reports whether there is nothing to inject.
func (i Injection) Empty() bool { return len(i.Docs) == 0 }
