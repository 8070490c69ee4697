//go:build e2e

package e2e

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/recall"
)

// scenario is one prompt of the measurements with the documents the fake
// recall selectors pick for it (most useful first).
type scenario struct {
	prompt string
	pick   []string
}

// scenarios are the prompts the hosts table measures on the shared
// example tree (examples/memory/project and user): one English prompt that
// matches two documents lexically and needs a third, one Chinese prompt,
// and one that no memory is about.
func scenarios() []scenario {
	return []scenario{
		{"how do we deploy during the release freeze?", []string{"release-freeze-q4.md", "deploy-checklist.md", "grafana-dashboards.md"}},
		{"支付回调重试的幂等规则是什么？", []string{"payment-callback-retry.md", "2026-10-db-failover.md"}},
		{"write a haiku about autumn leaves", nil},
	}
}

// claudeScenarios are the same three kinds of prompt for Claude Code's own
// example tree (examples/memory/claude).
func claudeScenarios() []scenario {
	return []scenario{
		{"can we merge to main during the release freeze?", []string{"release-freeze.md", "small-prs.md", "crash-dashboard.md"}},
		{"how do I check the crash rate after a release?", []string{"crash-dashboard.md", "device-testing.md"}},
		{"write a haiku about autumn leaves", nil},
	}
}

// scenariosFor returns the scenarios for the tree exampleTrees gives a.
func scenariosFor(t *testing.T, a *Agent) []scenario {
	t.Helper()
	if a.Name == "claude" {
		return claudeScenarios()
	}
	return scenarios()
}

// repoRoot is the module root (the tests run in e2e/).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// exampleTrees returns the shipped example memory trees for a: Claude
// Code's own form (examples/memory/claude) for Claude Code, else the
// Qwen-form tree.
func exampleTrees(t *testing.T, a *Agent) (project, user string) {
	t.Helper()
	root := repoRoot(t)
	project = filepath.Join(root, "examples", "memory", "project")
	user = filepath.Join(root, "examples", "memory", "user")
	if a.Name == "claude" {
		project = filepath.Join(root, "examples", "memory", "claude")
	}
	return project, user
}

// requireAgent skips the test when a is not installed, saying why.
func requireAgent(t *testing.T, a *Agent) {
	t.Helper()
	if _, err := a.Command(AgentsDir()); err != nil {
		if errors.Is(err, ErrNotInstalled) {
			t.Skipf("skipping: %v (e2e/install.sh could not reach the npm registry?)", err)
		}
		t.Fatal(err)
	}
}

// newWorld makes a world for a in a fresh temp dir with the example trees.
func newWorld(t *testing.T, a *Agent, name string) *World {
	t.Helper()
	project, user := exampleTrees(t, a)
	w, err := NewWorld(t.TempDir(), name, a, project, user)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// do runs r and fails the test when the run could not be made or the
// agent failed; it logs the wall time and, on failure, the agent's output.
func do(t *testing.T, r Run) *Result {
	t.Helper()
	res, err := r.Do(context.Background())
	if err != nil {
		if errors.Is(err, ErrNotInstalled) {
			t.Skipf("skipping: %v", err)
		}
		t.Fatal(err)
	}
	t.Logf("%s: %d requests in %v", r.World.Agent.Name, len(res.Requests), res.Wall.Round(time.Millisecond))
	if res.Err != nil || res.Overflow > 0 {
		t.Errorf("%s failed: %v (overflow %d)\nstdout:\n%s\nstderr (tail):\n%s",
			r.World.Agent.Name, res.Err, res.Overflow, res.Stdout, tail(res.Stderr, 3000))
	}
	return res
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// docs loads the topic files of the world's memory, project and user.
func docs(t *testing.T, w *World) []Doc {
	t.Helper()
	out, err := LoadDocs(w.ProjectMemory)
	if err != nil {
		t.Fatal(err)
	}
	if w.UserMemory != "" {
		user, err := LoadDocs(w.UserMemory)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, user...)
	}
	return out
}

// containsAll reports whether every name in want is in got.
func containsAll(got []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, g := range got {
			if g == w || strings.HasSuffix(g, "/"+w) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// FastDocs returns, as names relative to their memory directory, the
// documents memrecall's deterministic stage delivers first for prompt in
// w's memory, best first: what the daemon's first answer holds.
func FastDocs(w *World, prompt string) []string {
	eng := recall.New(recall.Options{ProjectDir: w.ProjectMemory, UserDir: w.UserMemory})
	defer eng.Shutdown()
	ctx := context.Background()
	plan := eng.Query(ctx, recall.Query{Text: prompt})
	inj := plan.Initial(ctx)
	plan.End()
	var out []string
	for _, id := range inj.Docs {
		for _, root := range []string{w.ProjectMemory, w.UserMemory} {
			if root == "" {
				continue
			}
			if rel, err := filepath.Rel(root, string(id)); err == nil && !strings.HasPrefix(rel, "..") {
				out = append(out, filepath.ToSlash(rel))
				break
			}
		}
	}
	return out
}
