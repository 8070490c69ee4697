package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/agent"
)

// claudeHome builds a throw-away home whose Claude Code memory for a fresh
// git repository is a copy of examples/memory/claude, and makes that
// repository the working directory. Nothing touches the real home.
func claudeHome(t *testing.T) (home, repo string) {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "..", "examples", "memory", "claude"))
	if err != nil {
		t.Fatal(err)
	}
	home = t.TempDir()
	repo, err = filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"CLAUDE_CONFIG_DIR", "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "CLAUDE_CODE_REMOTE_MEMORY_DIR"} {
		t.Setenv(k, "")
	}
	t.Setenv("HOME", home)
	env, err := agent.OSEnv()
	if err != nil {
		t.Fatal(err)
	}
	loc, err := agent.Locate(agent.Claude, repo, env)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(loc.Project, home) {
		t.Fatalf("Claude memory located at %q, outside the test home %q", loc.Project, home)
	}
	if err := os.CopyFS(loc.Project, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	return home, repo
}

// The example Claude Code tree, found where Claude Code keeps it, lists
// every topic with its nested type and never the index.
func TestScanAgentClaudeExample(t *testing.T) {
	claudeHome(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"scan", "--agent", "claude"}, &out, &errOut); code != 0 {
		t.Fatalf("scan --agent claude: exit %d, stderr %s", code, errOut.String())
	}
	for _, want := range []string{
		"project  project    ", "release-freeze.md", "api-versioning.md",
		"project  user       ", "user-role.md",
		"project  feedback   ", "small-prs.md", "no-force-push.md", "device-testing.md",
		"project  reference  ", "crash-dashboard.md", "localization.md",
		"8 documents (project 8, user 0); skipped 0: none",
		"user: none (Claude Code has no user memory scope)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("scan output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "MEMORY.md") {
		t.Errorf("the index is listed as a topic:\n%s", out.String())
	}
}

// query --agent claude recalls from the example tree: the folded
// description of release-freeze ranks it first for a question about the
// freeze, and so does the README's question, whose "release" and "freeze"
// are type words and whose "deploy" no note holds (decision 0212).
func TestQueryAgentClaudeExample(t *testing.T) {
	claudeHome(t)
	t.Setenv(envBaseURL, "")
	t.Setenv(envModel, "")
	for _, q := range []string{"when does the merge freeze for the release cut start", "how do we deploy during the release freeze?"} {
		var out, errOut bytes.Buffer
		if code := run([]string{"query", "--agent", "claude", q}, &out, &errOut); code != 0 {
			t.Fatalf("query --agent claude %q: exit %d, stderr %s", q, code, errOut.String())
		}
		ranked := out.String()
		i := strings.Index(ranked, "RANK")
		if i < 0 {
			t.Fatalf("%q: no ranked list in:\n%s", q, ranked)
		}
		first := strings.SplitN(ranked[i:], "\n", 3)[1]
		if !strings.Contains(first, "release-freeze.md") {
			t.Errorf("%q: first ranked line %q, want release-freeze.md:\n%s", q, first, ranked)
		}
	}
}

// autoMemoryDirectory in the user settings moves Claude Code's memory; the
// CLI follows it and says so.
func TestScanAgentClaudeAutoMemoryDirectory(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "examples", "memory", "claude"))
	if err != nil {
		t.Fatal(err)
	}
	home, _ := claudeHome(t)
	moved := filepath.Join(home, "elsewhere", "mem")
	if err := os.CopyFS(moved, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.WriteFile(settings, []byte(`{"autoMemoryDirectory": "~/elsewhere/mem"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"scan", "--agent", "claude"}, &out, &errOut); code != 0 {
		t.Fatalf("scan --agent claude: exit %d, stderr %s", code, errOut.String())
	}
	for _, want := range []string{"project: " + moved, "autoMemoryDirectory in " + settings, "8 documents"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("scan output lacks %q:\n%s", want, out.String())
		}
	}
}
