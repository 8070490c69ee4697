package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/agent"
	"github.com/memrecall/memrecall/memory"
)

func TestResolveDirs(t *testing.T) {
	home := t.TempDir()
	cwd, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env := agent.Env{Home: home, ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }}
	qwen, err := agent.Locate(agent.Qwen, cwd, env)
	if err != nil {
		t.Fatal(err)
	}
	claude, err := agent.Locate(agent.Claude, cwd, env)
	if err != nil {
		t.Fatal(err)
	}
	qwenWhy := append([]string{"qwen's memory for " + cwd}, qwen.Why...)
	claudeWhy := append([]string{"claude's memory for " + cwd}, claude.Why...)
	tests := []struct {
		name          string
		project, user string
		agent         string
		qwen          bool
		want          memory.Roots
		wantWhy       []string
	}{
		{"defaults to the examples", "", "", "", false,
			memory.Roots{Project: exampleProjectDir, User: exampleUserDir},
			[]string{"the example tree (no --agent, --project or --user given)"}},
		{"only project given", "p", "", "", false, memory.Roots{Project: "p"}, []string{"project: --project"}},
		{"only user given", "", "u", "", false, memory.Roots{User: "u"}, []string{"user: --user"}},
		{"both given", "p", "u", "", false, memory.Roots{Project: "p", User: "u"}, []string{"project: --project", "user: --user"}},
		{"--qwen", "", "", "", true, memory.Roots{Project: qwen.Project, User: qwen.User}, qwenWhy},
		{"--agent qwen", "", "", "qwen", false, memory.Roots{Project: qwen.Project, User: qwen.User}, qwenWhy},
		{"--qwen and --agent qwen", "", "", "qwen", true, memory.Roots{Project: qwen.Project, User: qwen.User}, qwenWhy},
		{"--qwen with user override", "", "u", "", true, memory.Roots{Project: qwen.Project, User: "u"},
			append(append([]string{}, qwenWhy...), "user: --user replaces it")},
		{"--agent claude", "", "", "Claude", false, memory.Roots{Project: claude.Project}, claudeWhy},
		{"--agent claude with project override", "p", "", "claude", false, memory.Roots{Project: "p"},
			append(append([]string{}, claudeWhy...), "project: --project replaces it")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why, err := resolveDirs(tt.project, tt.user, tt.agent, tt.qwen, cwd, env)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("roots (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWhy, why); diff != "" {
				t.Errorf("why (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveDirsErrors(t *testing.T) {
	env := agent.Env{Home: t.TempDir()}
	if _, _, err := resolveDirs("", "", "claude", true, "/", env); !errors.Is(err, errAgentConflict) {
		t.Errorf("--qwen --agent claude: error %v, want %v", err, errAgentConflict)
	}
	if _, _, err := resolveDirs("", "", "cursor", false, "/", env); !errors.Is(err, agent.ErrUnknownAgent) {
		t.Errorf("--agent cursor: error %v, want %v", err, agent.ErrUnknownAgent)
	}
}

// scan --agent qwen on a fake home prints the resolved directories and
// why, and --agent with an unknown name is a usage error with a message.
func TestScanAgentPrintsWhy(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("QWEN_HOME", "")
	t.Setenv("QWEN_RUNTIME_DIR", "")
	t.Setenv("QWEN_CODE_MEMORY_BASE_DIR", "")
	t.Setenv("QWEN_CODE_MEMORY_LOCAL", "")
	t.Setenv("QWEN_CODE_MEMORY_PROJECT_SCOPE", "")
	repo, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	var out, errOut bytes.Buffer
	if code := run([]string{"scan", "--agent", "qwen"}, &out, &errOut); code != 0 {
		t.Fatalf("scan --agent qwen: exit %d, stderr %s", code, errOut.String())
	}
	for _, want := range []string{
		"user:    " + filepath.Join(home, ".qwen", "memories"),
		"why:     qwen's memory for " + repo,
		"base: ~/.qwen",
		"project: <base>/projects/<sanitized git root>/memory",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("scan output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"scan", "--agent", "cursor"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "unknown agent") {
		t.Errorf("scan --agent cursor: exit %d, stderr %q; want 1 and an unknown-agent message", code, errOut.String())
	}
}
