package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/memrecall/memrecall/e2e/fakemodel"
	"github.com/memrecall/memrecall/internal/agentpins"
)

// pin is the named agent's pin. pins.txt is compiled in and
// agentpins.TestShippedPins checks that it pins every agent named here,
// so a missing pin is a broken build, reported as such.
func pin(name string) agentpins.Pin {
	p, err := agentpins.Get(name)
	if err != nil {
		panic(err)
	}
	return p
}

// Agent describes how to run one coding agent offline against a fake model
// server: where it is installed, which protocol its fake speaks, which
// settings and environment it needs and where it keeps its memory.
// memrecall's hooks are written into the settings by `memrecall install`.
type Agent struct {
	// Name is memrecall's name for the agent: "claude", "qwen", "gemini".
	Name string
	// Package and Version are what e2e/install.sh installs.
	Package, Version string
	// entry is the program to run, relative to the install prefix.
	entry string
	// node reports whether entry is a script run with node.
	node bool
	// ShellTool is the agent's shell tool as the model calls it.
	ShellTool string
	// settingsPath is the user settings file, relative to HOME.
	settingsPath string
	// baseSettings are written to the settings file of every run.
	baseSettings map[string]any
}

// ClaudeCode is Claude Code at its pinned version (internal/agentpins).
func ClaudeCode() *Agent {
	p := pin("claude")
	return &Agent{
		Name: p.Name, Package: p.Package, Version: p.Version,
		entry: "node_modules/.bin/claude", ShellTool: "Bash",
		settingsPath: ".claude/settings.json",
		baseSettings: map[string]any{},
	}
}

// QwenCode is Qwen Code at its pinned version (internal/agentpins).
func QwenCode() *Agent {
	p := pin("qwen")
	return &Agent{
		Name: p.Name, Package: p.Package, Version: p.Version,
		entry: "node_modules/@qwen-code/qwen-code/cli.js", node: true, ShellTool: "run_shell_command",
		settingsPath: ".qwen/settings.json",
		baseSettings: map[string]any{
			"security":  map[string]any{"auth": map[string]any{"selectedType": "openai"}},
			"privacy":   map[string]any{"usageStatisticsEnabled": false},
			"telemetry": map[string]any{"enabled": false},
		},
	}
}

// GeminiCLI is Gemini CLI at its pinned version (internal/agentpins).
func GeminiCLI() *Agent {
	p := pin("gemini")
	return &Agent{
		Name: p.Name, Package: p.Package, Version: p.Version,
		entry: "node_modules/@google/gemini-cli/bundle/gemini.js", node: true, ShellTool: "run_shell_command",
		settingsPath: ".gemini/settings.json",
		baseSettings: map[string]any{
			// GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth type,
			// which a non-interactive run refuses (exit 41).
			"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
			"privacy":   map[string]any{"usageStatisticsEnabled": false},
			"telemetry": map[string]any{"enabled": false},
		},
	}
}

// AllAgents lists the three agents in the order the issue ranks them.
func AllAgents() []*Agent { return []*Agent{ClaudeCode(), GeminiCLI(), QwenCode()} }

// ErrNotInstalled means the agent's pinned version is not in the install
// directory (e2e/install.sh could not fetch it).
var ErrNotInstalled = errors.New("e2e: agent not installed")

// AgentsDir is where e2e/install.sh put the agents.
func AgentsDir() string {
	if d := os.Getenv("MEMRECALL_E2E_AGENTS"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "memrecall-e2e")
}

// Command returns the argv prefix that starts the agent installed under
// dir, or an error wrapping ErrNotInstalled.
func (a *Agent) Command(dir string) ([]string, error) {
	prefix := filepath.Join(dir, a.Name)
	pin := agentpins.Pin{Name: a.Name, Package: a.Package, Version: a.Version}
	v, err := pin.Installed(prefix)
	if err != nil {
		return nil, fmt.Errorf("%w: %s@%s (%w; run e2e/install.sh)", ErrNotInstalled, a.Package, a.Version, err)
	}
	if v != a.Version {
		return nil, fmt.Errorf("%w: %s is %q, want %s", ErrNotInstalled, a.Package, v, a.Version)
	}
	entry := filepath.Join(prefix, filepath.FromSlash(a.entry))
	if _, err := os.Stat(entry); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrNotInstalled, err)
	}
	if a.node {
		return []string{"node", entry}, nil
	}
	return []string{entry}, nil
}

// Args are the agent's arguments for a non-interactive run of prompt;
// tools allows the shell tool without asking.
func (a *Agent) Args(prompt string, tools bool) []string {
	args := []string{"-p", prompt}
	if !tools {
		return args
	}
	switch a.Name {
	case "claude":
		return append(args, "--allowedTools", "Bash(ls:*) Read")
	case "qwen":
		return append(args, "--approval-mode", "yolo")
	default:
		return append(args, "--yolo")
	}
}

// Env is the agent's environment (besides HOME and PATH) for a fake server
// at url.
func (a *Agent) Env(url string) []string {
	switch a.Name {
	case "claude":
		return []string{
			"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=fake-key",
			"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		}
	case "qwen":
		return []string{
			"OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=fake-key", "OPENAI_MODEL=fake-model",
			"QWEN_CODE_SUPPRESS_YOLO_WARNING=1",
			// It would start a second node with a larger heap: ~10 s
			// more per run on a loaded machine.
			"QWEN_CODE_NO_RELAUNCH=true",
		}
	default:
		return []string{
			"GOOGLE_GEMINI_BASE_URL=" + url, "GEMINI_API_KEY=fake-key",
			"GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true",
		}
	}
}

// Fake starts the agent's fake model server.
func (a *Agent) Fake(sc fakemodel.Script, b fakemodel.Bounds) (*fakemodel.Server, error) {
	switch a.Name {
	case "claude":
		return fakemodel.Anthropic(sc, b)
	case "qwen":
		return fakemodel.OpenAI(sc, b)
	default:
		return fakemodel.Gemini(sc, b)
	}
}

// nonAlnum is the character class Claude Code and Qwen Code replace in a
// project path to name its memory directory.
var nonAlnum = regexp.MustCompile(`[^A-Za-z0-9]`)

// nonLowerAlnumRun is the run Gemini CLI squeezes into one '-'.
var nonLowerAlnumRun = regexp.MustCompile(`[^a-z0-9]+`)

// Slug is Claude Code's and Qwen Code's project directory name for a git
// root: every character that is not an ASCII letter or digit becomes '-'.
func Slug(gitRoot string) string {
	return nonAlnum.ReplaceAllString(gitRoot, "-")
}

// GeminiSlug is Gemini CLI's short id for a project root when no other
// project has claimed it: the base name lower-cased, every run of
// characters other than a-z and 0-9 one '-', no '-' at either end,
// "project" when nothing is left.
func GeminiSlug(root string) string {
	s := nonLowerAlnumRun.ReplaceAllString(strings.ToLower(filepath.Base(root)), "-")
	s = strings.Trim(s, "-")
	if s == "" {
		return "project"
	}
	return s
}

// MemoryDirs returns the agent's project memory directory for the project
// at root under home and its user memory directory ("" when the agent has
// none). For Gemini CLI it also registers the project in
// ~/.gemini/projects.json with its ownership markers, as the CLI does on
// its first run, so the directory is the one the CLI will use.
func (a *Agent) MemoryDirs(home, root string) (project, user string, err error) {
	switch a.Name {
	case "claude":
		return filepath.Join(home, ".claude", "projects", Slug(root), "memory"), "", nil
	case "qwen":
		return filepath.Join(home, ".qwen", "projects", Slug(root), "memory"), filepath.Join(home, ".qwen", "memories"), nil
	}
	slug := GeminiSlug(root)
	gem := filepath.Join(home, ".gemini")
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if data, err := os.ReadFile(filepath.Join(gem, "projects.json")); err == nil {
		_ = json.Unmarshal(data, &reg) // a bad registry is rewritten
	}
	if reg.Projects == nil {
		reg.Projects = map[string]string{}
	}
	reg.Projects[root] = slug
	data, _ := json.Marshal(reg)
	if err := writeFile(filepath.Join(gem, "projects.json"), data); err != nil {
		return "", "", err
	}
	for _, d := range []string{filepath.Join(gem, "tmp", slug), filepath.Join(gem, "history", slug)} {
		if err := writeFile(filepath.Join(d, ".project_root"), []byte(root)); err != nil {
			return "", "", err
		}
	}
	return filepath.Join(gem, "tmp", slug, "memory"), "", nil
}

// writeFile writes data to path, creating its directory.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("e2e: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("e2e: %w", err)
	}
	return nil
}

// Settings returns the agent's base user settings for a run.
func (a *Agent) Settings() map[string]any {
	s := map[string]any{}
	for k, v := range a.baseSettings {
		s[k] = v
	}
	return s
}
