package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/memrecall/memrecall/e2e/fakemodel"
)

// World is one throw-away machine for an agent: a HOME, a git repository
// to work in, and the agent's memory directories.
type World struct {
	Agent *Agent
	// Home is the HOME the agent runs with.
	Home string
	// Project is the agent's working directory, the root of a git
	// repository with one commit.
	Project string
	// ProjectMemory and UserMemory are where the agent keeps its memory
	// for Project ("" for UserMemory when the agent has none).
	ProjectMemory, UserMemory string
}

// NewWorld makes a world for a under dir (which should be empty): HOME at
// dir/home, a git repository at dir/<name>, the agent's base settings,
// and the memory trees projectTree and userTree (either may be "")
// copied to the agent's memory directories.
func NewWorld(dir, name string, a *Agent, projectTree, userTree string) (*World, error) {
	w := &World{Agent: a, Home: filepath.Join(dir, "home"), Project: filepath.Join(dir, name)}
	if err := os.MkdirAll(w.Home, 0o755); err != nil {
		return nil, fmt.Errorf("e2e: %w", err)
	}
	if err := writeFile(filepath.Join(w.Project, "README.md"), []byte("# "+name+"\n\nA scratch project.\n")); err != nil {
		return nil, err
	}
	if err := gitInit(w.Project, w.Home); err != nil {
		return nil, err
	}
	var err error
	if w.ProjectMemory, w.UserMemory, err = a.MemoryDirs(w.Home, w.Project); err != nil {
		return nil, err
	}
	if projectTree != "" {
		if err := copyTree(projectTree, w.ProjectMemory); err != nil {
			return nil, err
		}
	}
	if userTree != "" && w.UserMemory != "" {
		if err := copyTree(userTree, w.UserMemory); err != nil {
			return nil, err
		}
	}
	if err := w.WriteSettings(); err != nil {
		return nil, err
	}
	return w, nil
}

// WriteSettings writes the agent's base user settings.
func (w *World) WriteSettings() error {
	data, err := json.MarshalIndent(w.Agent.Settings(), "", "  ")
	if err != nil {
		return fmt.Errorf("e2e: settings: %w", err)
	}
	return writeFile(filepath.Join(w.Home, filepath.FromSlash(w.Agent.settingsPath)), data)
}

// PatchSettings sets top-level keys of the agent's user settings file,
// keeping every other key (a settings file `memrecall install` wrote, say).
func (w *World) PatchSettings(keys map[string]any) error {
	s := map[string]any{}
	data, err := os.ReadFile(w.SettingsPath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("e2e: %w", err)
	}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("e2e: settings: %w", err)
		}
	}
	for k, v := range keys {
		s[k] = v
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("e2e: settings: %w", err)
	}
	return writeFile(w.SettingsPath(), out)
}

// SettingsPath is the agent's user settings file in this world.
func (w *World) SettingsPath() string {
	return filepath.Join(w.Home, filepath.FromSlash(w.Agent.settingsPath))
}

// gitInit makes dir a git repository with one commit, isolated from the
// caller's git configuration.
func gitInit(dir, home string) error {
	for _, args := range [][]string{
		{"init", "-q", "-b", "main", "."},
		{"add", "-A"},
		{"-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "commit", "-q", "-m", "init"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("e2e: git %v: %w: %s", args, err, out)
		}
	}
	return nil
}

// copyTree copies the regular files under src to dst, keeping the layout.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

// Run is one non-interactive agent turn against a fake model server.
type Run struct {
	World  *World
	Prompt string
	// Tools lets the agent run its shell tool without asking.
	Tools bool
	// Script is what the fake model answers.
	Script fakemodel.Script
	// Env is added to the agent's environment (memrecall's runtime
	// directory, its config, …).
	Env []string
	// Timeout bounds the whole turn; the agent's process group is killed
	// when it passes. Default 300 s (a loaded 2-core machine has taken
	// 150 s for one Qwen Code turn).
	Timeout time.Duration
	// AgentsDir is where the agents are installed (default AgentsDir()).
	AgentsDir string
}

// Result is what one run left behind.
type Result struct {
	Requests       []fakemodel.Request
	Stdout, Stderr string
	// Err is the agent's exit error (nil on exit status 0).
	Err error
	// Wall is the agent's wall time.
	Wall time.Duration
	// Overflow counts requests the fake refused because the run exceeded
	// its request bound.
	Overflow int
}

// Do starts the fake server, runs the agent to the end of its turn and
// returns the request log. An error means the run could not be made
// (ErrNotInstalled, a server that did not start); an agent that fails is
// reported in Result.Err.
func (r Run) Do(ctx context.Context) (*Result, error) {
	a := r.World.Agent
	dir := r.AgentsDir
	if dir == "" {
		dir = AgentsDir()
	}
	argv, err := a.Command(dir)
	if err != nil {
		return nil, err
	}
	srv, err := a.Fake(r.Script, fakemodel.Bounds{MaxRequests: 40, Timeout: 30 * time.Second})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 300 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	argv = append(argv, a.Args(r.Prompt, r.Tools)...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = r.World.Project
	cmd.Env = append([]string{
		"HOME=" + r.World.Home,
		"PATH=" + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"CI=1",
		"TMPDIR=" + filepath.Join(r.World.Home, "tmp"),
	}, a.Env(srv.URL)...)
	cmd.Env = append(cmd.Env, r.Env...)
	if err := os.MkdirAll(filepath.Join(r.World.Home, "tmp"), 0o755); err != nil {
		return nil, fmt.Errorf("e2e: %w", err)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Stdin = nil
	// The agent and everything it starts (hooks, shells) share one process
	// group, killed as a whole on timeout.
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 5 * time.Second

	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("e2e: starting %s: %w", a.Name, err)
	}
	runErr := cmd.Wait()
	res := &Result{
		Stdout: stdout.String(), Stderr: stderr.String(), Err: runErr,
		Wall: time.Since(begin), Requests: srv.Requests(), Overflow: srv.Overflow(),
	}
	if dir := os.Getenv("MEMRECALL_E2E_LOGDIR"); dir != "" {
		dumpLog(dir, a.Name, res)
	}
	// Whatever the agent left running in its group (a hung hook) goes too.
	_ = killGroup(cmd)
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.Err = fmt.Errorf("e2e: %s did not finish within %v: %w", a.Name, timeout, ctx.Err())
	}
	return res, nil
}

// dumpLog writes a run's requests and output under dir for a person to
// read (MEMRECALL_E2E_LOGDIR); failures to write are ignored.
func dumpLog(dir, agent string, res *Result) {
	d, err := os.MkdirTemp(dir, agent+"-")
	if err != nil {
		return
	}
	for _, q := range res.Requests {
		_ = os.WriteFile(filepath.Join(d, fmt.Sprintf("%02d-%s.json", q.Seq, q.Kind)), q.Body, 0o644)
	}
	_ = os.WriteFile(filepath.Join(d, "stdout"), []byte(res.Stdout), 0o644)
	_ = os.WriteFile(filepath.Join(d, "stderr"), []byte(res.Stderr), 0o644)
}
