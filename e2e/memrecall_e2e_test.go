//go:build e2e

package e2e

import (
	"testing"
)

// memrecallSetup is memrecall wired into one world: the hook installed in
// the agent's settings, the daemon's runtime directory, and a fake
// selector.
type memrecallSetup struct {
	// Env is what the agent's runs need (XDG_RUNTIME_DIR, config).
	Env   []string
	close func()
}

// Close stops what the setup started.
func (m *memrecallSetup) Close() {
	if m.close != nil {
		m.close()
	}
}

// memrecallFor wires memrecall into w with a fake selector that picks pick
// after 2 s. It reports false when this build of memrecall has no hook
// command yet.
func memrecallFor(t *testing.T, w *World, pick []string) (*memrecallSetup, bool) {
	t.Helper()
	return nil, false
}
