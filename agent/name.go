package agent

import (
	"errors"
	"fmt"
	"strings"
)

// Name identifies a host agent. Its value is the lower-case word users type
// after --agent.
type Name string

// The agents memrecall knows.
const (
	Claude Name = "claude" // Claude Code
	Gemini Name = "gemini" // Gemini CLI
	Qwen   Name = "qwen"   // Qwen Code
)

// Names lists every known agent in a fixed order (for usage texts).
func Names() []Name { return []Name{Claude, Gemini, Qwen} }

// ErrUnknownAgent is returned (wrapped) for a name no agent answers to.
var ErrUnknownAgent = errors.New("unknown agent")

// ParseName reads an agent name as a user types it: case and surrounding
// space do not matter.
func ParseName(s string) (Name, error) {
	switch n := Name(strings.ToLower(strings.TrimSpace(s))); n {
	case Claude, Gemini, Qwen:
		return n, nil
	}
	return "", fmt.Errorf("%w %q (want claude, gemini or qwen)", ErrUnknownAgent, s)
}

// String returns the name as typed.
func (n Name) String() string { return string(n) }
