package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Env is everything the location rules read from outside: the user's home,
// the environment and settings files. Tests inject it and never touch the
// real home. Finding the git root and resolving symbolic links in the
// working directory read the filesystem at cwd itself.
type Env struct {
	Home     string                       // the user's home directory
	Getenv   func(string) string          // environment lookup; nil means none set
	ReadFile func(string) ([]byte, error) // settings and registry files; nil means os.ReadFile
}

// OSEnv returns the environment of this process: its home directory,
// os.Getenv and os.ReadFile.
func OSEnv() (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("agent: %w", err)
	}
	return Env{Home: home, Getenv: os.Getenv, ReadFile: os.ReadFile}, nil
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func (e Env) readFile(p string) ([]byte, error) {
	if e.ReadFile == nil {
		return os.ReadFile(p)
	}
	return e.ReadFile(p)
}

// Roots are the memory directories an agent uses for a working directory.
type Roots struct {
	Project string   // "" when none
	User    string   // "" when the agent has no user scope (Claude)
	Why     []string // one human-readable line per decision taken (which rule/env/setting chose each dir)
	// PlainNotes says the agent writes project notes without frontmatter
	// (Gemini CLI: a `# <topic>` line, then text), so the project root's
	// frontmatter-less topic files are documents, not skips
	// (memory.Roots.PlainProject).
	PlainNotes bool
}

// Errors Locate returns (wrapped), for callers to test.
var (
	ErrNoHome      = errors.New("no home directory")
	ErrRelativeCwd = errors.New("working directory is not absolute")
)

// Locate returns where agent a keeps its memory for the working directory
// cwd, following the rules the agent itself applies (see
// docs/decisions/0700-agent-memory-locations.md). It does not check that
// the directories exist: a missing one is an empty memory.
func Locate(a Name, cwd string, env Env) (Roots, error) {
	if !filepath.IsAbs(cwd) {
		return Roots{}, fmt.Errorf("agent %s: %w: %q", a, ErrRelativeCwd, cwd)
	}
	cwd = resolved(filepath.Clean(cwd))
	switch a {
	case Claude:
		return locateClaude(cwd, env)
	case Gemini:
		return locateGemini(cwd, env)
	case Qwen:
		return locateQwen(cwd, env)
	}
	return Roots{}, fmt.Errorf("agent: %w %q", ErrUnknownAgent, string(a))
}

// resolved returns path with symbolic links resolved, or path itself when
// that fails (a directory that does not exist yet).
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// expandHome resolves a path as the agents read one from the environment
// or a setting: "~" and "~/..." name the home directory, a relative path
// is taken from base (the working directory).
func expandHome(p, home, base string) string {
	switch {
	case p == "~":
		p = home
	case strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`):
		p = filepath.Join(home, p[2:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// gitRoot returns the nearest directory at or above dir that holds a .git
// entry (a directory, or a file in worktrees and submodules) and what that
// entry is, or ok false when there is none. It never runs git.
func gitRoot(dir string) (root string, entry fs.FileMode, ok bool) {
	for d := dir; ; {
		if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, fi.Mode().Type(), true
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) {
			return "", 0, false
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", 0, false
		}
		d = parent
	}
}

// sanitizePath names a project's directory the way Claude Code and Qwen
// Code do: every character but ASCII letters and digits becomes '-',
// counted in UTF-16 code units as JavaScript's replace does (a character
// outside the Basic Multilingual Plane gives two). Qwen Code lower-cases
// the path first on Windows.
func sanitizePath(path string, lower bool) string {
	if lower {
		path = strings.ToLower(path)
	}
	var b strings.Builder
	b.Grow(len(path))
	for _, r := range path {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

const windows = runtime.GOOS == "windows"

// readJSONString reads one string field at the given key path of a JSON
// settings file. A missing file, a missing key or a value of another type
// reads as "" with a reason (for Why); only a file that exists but does
// not read or parse is an error worth showing, and it is shown as a reason
// too: a broken settings file must not stop recall.
func readJSONString(env Env, file string, keys ...string) (val, note string) {
	data, err := env.readFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", ""
	}
	if err != nil {
		return "", fmt.Sprintf("%s unreadable (%v), ignored", file, err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return "", fmt.Sprintf("%s is not valid JSON (%v), ignored", file, err)
	}
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return "", ""
		}
		if v, ok = m[k]; !ok {
			return "", ""
		}
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Sprintf("%s: %s is not a string, ignored", file, strings.Join(keys, "."))
	}
	return s, ""
}

// claudeSlugMax is the length beyond which Claude Code cuts a project's
// directory name and appends a hash of the path.
const claudeSlugMax = 200

// locateClaude applies Claude Code's rules: an absolute
// CLAUDE_COWORK_MEMORY_PATH_OVERRIDE, else autoMemoryDirectory from the
// managed then the user settings, else
// <config dir>/projects/<sanitized canonical git root>/memory. Claude Code
// has no user scope.
func locateClaude(cwd string, env Env) (Roots, error) {
	var r Roots
	r.Why = append(r.Why, "user: none (Claude Code has no user memory scope)")
	if v := env.getenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"); v != "" {
		if p, ok := claudeDir(v, "", false); ok {
			r.Project = p
			r.Why = append(r.Why, "project: CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
			return r, nil
		}
		r.Why = append(r.Why, "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE is not an absolute path, ignored")
	}
	configDir := env.getenv("CLAUDE_CONFIG_DIR")
	if configDir == "" {
		if env.Home == "" {
			return Roots{}, fmt.Errorf("agent claude: %w", ErrNoHome)
		}
		configDir = filepath.Join(env.Home, ".claude")
	} else {
		r.Why = append(r.Why, "config dir: CLAUDE_CONFIG_DIR")
	}
	for _, file := range []string{claudeManagedSettings(), filepath.Join(configDir, "settings.json")} {
		if file == "" {
			continue
		}
		v, note := readJSONString(env, file, "autoMemoryDirectory")
		if note != "" {
			r.Why = append(r.Why, note)
		}
		if v == "" {
			continue
		}
		if p, ok := claudeDir(v, env.Home, true); ok {
			r.Project = p
			r.Why = append(r.Why, "project: autoMemoryDirectory in "+file)
			return r, nil
		}
		r.Why = append(r.Why, "autoMemoryDirectory in "+file+" is not an absolute or ~/ path, ignored")
	}
	base := configDir
	if v := env.getenv("CLAUDE_CODE_REMOTE_MEMORY_DIR"); v != "" {
		base = v
		r.Why = append(r.Why, "projects under CLAUDE_CODE_REMOTE_MEMORY_DIR")
	}
	key, how := claudeProjectKey(cwd)
	slug := sanitizePath(key, false)
	if len(slug) > claudeSlugMax {
		// Claude Code appends a hash of the path we do not reproduce; say
		// so rather than name a directory it never writes.
		r.Why = append(r.Why, fmt.Sprintf("project: none (the sanitized %s is longer than %d characters; Claude Code then appends a hash memrecall does not compute; pass --project)", how, claudeSlugMax))
		return r, nil
	}
	r.Project = filepath.Join(base, "projects", slug, "memory")
	r.Why = append(r.Why, "project: projects/<sanitized "+how+">/memory")
	return r, nil
}

// claudeManagedSettings is the managed (policy) settings file, which wins
// over the user's.
func claudeManagedSettings() string {
	switch runtime.GOOS {
	case "linux":
		return "/etc/claude-code/managed-settings.json"
	case "darwin":
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	}
	return ""
}

// claudeDir validates a memory directory setting as Claude Code does:
// "~/" expands to home (when tilde is allowed) and may not climb out of
// it, the result must be absolute, at least three characters long and
// free of NUL bytes.
func claudeDir(v, home string, tilde bool) (string, bool) {
	if tilde && (strings.HasPrefix(v, "~/") || strings.HasPrefix(v, `~\`)) {
		rest := filepath.Clean(v[2:])
		if rest == "." || rest == ".." || strings.HasPrefix(rest, ".."+string(filepath.Separator)) || home == "" {
			return "", false
		}
		v = filepath.Join(home, rest)
	}
	p := filepath.Clean(v)
	if !filepath.IsAbs(p) || len(p) < 3 || strings.ContainsRune(p, 0) {
		return "", false
	}
	return p, true
}

// claudeProjectKey returns the path Claude Code names a project's memory
// after: the canonical git root (for a linked worktree, the root of the
// main working tree, so all worktrees of a repository share one memory),
// else the working directory. how says which, for Why.
func claudeProjectKey(cwd string) (key, how string) {
	root, entry, ok := gitRoot(cwd)
	if !ok {
		return cwd, "working directory (no .git above it)"
	}
	if entry.IsDir() {
		return root, "git root"
	}
	if main, ok := mainWorktree(root); ok {
		return main, "main worktree of the git root"
	}
	return root, "git root"
}

// mainWorktree follows a linked worktree's .git file ("gitdir: X") to its
// common git directory C (X/commondir) and returns the working tree that
// holds C, checking the links both ways as Claude Code does: X must be
// C/worktrees/<name> and X/gitdir must point back at root/.git. For a
// bare common directory (not named .git, no .git inside) C itself is the
// key. ok is false for anything else (a submodule, broken links).
func mainWorktree(root string) (string, bool) {
	gitdir, ok := readGitLink(filepath.Join(root, ".git"), "gitdir:")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(root, gitdir)
	}
	gitdir = filepath.Clean(gitdir)
	common, ok := readGitLink(filepath.Join(gitdir, "commondir"), "")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitdir, common)
	}
	common = filepath.Clean(common)
	if filepath.Dir(gitdir) != filepath.Join(common, "worktrees") {
		return "", false
	}
	back, ok := readGitLink(filepath.Join(gitdir, "gitdir"), "")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(back) {
		back = filepath.Join(gitdir, back)
	}
	if resolved(filepath.Clean(back)) != filepath.Join(resolved(root), ".git") {
		return "", false
	}
	if filepath.Base(common) != ".git" {
		if _, err := os.Lstat(filepath.Join(common, ".git")); err == nil {
			return "", false
		}
		return common, true
	}
	return filepath.Dir(common), true
}

// readGitLink reads the first line of a small git link file, without the
// given prefix (which must be present when not empty).
func readGitLink(file, prefix string) (string, bool) {
	data, err := os.ReadFile(file)
	if err != nil || len(data) > 4096 {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	line = strings.TrimSpace(line)
	if prefix != "" {
		var ok bool
		if line, ok = strings.CutPrefix(line, prefix); !ok {
			return "", false
		}
		line = strings.TrimSpace(line)
	}
	return line, line != "" && !strings.ContainsRune(line, 0)
}

// locateQwen applies Qwen Code's rules (packages/core memory paths in
// @qwen-code/qwen-code 0.24.4). The memory base is
// QWEN_CODE_MEMORY_BASE_DIR, else QWEN_RUNTIME_DIR, else QWEN_HOME, else
// ~/.qwen. User memory is <base>/memories. Project memory is
// <project>/.qwen/memory with QWEN_CODE_MEMORY_LOCAL=1, else
// <base>/projects/<sanitized git root>/memory (the working directory
// itself with QWEN_CODE_MEMORY_PROJECT_SCOPE=workspace or without a git
// root).
func locateQwen(cwd string, env Env) (Roots, error) {
	var r Roots
	var base string
	switch {
	case env.getenv("QWEN_CODE_MEMORY_BASE_DIR") != "":
		base = expandHome(env.getenv("QWEN_CODE_MEMORY_BASE_DIR"), env.Home, cwd)
		r.Why = append(r.Why, "base: QWEN_CODE_MEMORY_BASE_DIR")
	case env.getenv("QWEN_RUNTIME_DIR") != "":
		base = expandHome(env.getenv("QWEN_RUNTIME_DIR"), env.Home, cwd)
		r.Why = append(r.Why, "base: QWEN_RUNTIME_DIR")
	case env.getenv("QWEN_HOME") != "":
		base = expandHome(env.getenv("QWEN_HOME"), env.Home, cwd)
		r.Why = append(r.Why, "base: QWEN_HOME")
	default:
		if env.Home == "" {
			return Roots{}, fmt.Errorf("agent qwen: %w", ErrNoHome)
		}
		base = filepath.Join(env.Home, ".qwen")
		r.Why = append(r.Why, "base: ~/.qwen")
	}
	r.User = filepath.Join(base, "memories")
	r.Why = append(r.Why, "user: <base>/memories")
	if env.getenv("QWEN_CODE_MEMORY_LOCAL") == "1" {
		r.Project = filepath.Join(cwd, ".qwen", "memory")
		r.Why = append(r.Why, "project: QWEN_CODE_MEMORY_LOCAL=1, <working directory>/.qwen/memory")
		return r, nil
	}
	key, how := cwd, "working directory"
	if strings.ToLower(strings.TrimSpace(env.getenv("QWEN_CODE_MEMORY_PROJECT_SCOPE"))) == "workspace" {
		how = "working directory (QWEN_CODE_MEMORY_PROJECT_SCOPE=workspace)"
	} else if root, _, ok := gitRoot(cwd); ok {
		key, how = root, "git root"
	} else {
		how = "working directory (no .git above it)"
	}
	r.Project = filepath.Join(base, "projects", sanitizePath(key, windows), "memory")
	r.Why = append(r.Why, "project: <base>/projects/<sanitized "+how+">/memory")
	return r, nil
}

// locateGemini applies Gemini CLI's rules (@google/gemini-cli 0.61.0):
// its runtime directory is <home>/.gemini (home is GEMINI_CLI_HOME when
// set; <home>/.cache/.gemini under SANDBOX=sandbox-exec); a project's
// short id is the value projects.json there holds for the working
// directory, and its private memory is <runtime>/tmp/<short id>/memory.
// A directory Gemini CLI has not registered has no memory yet. Gemini CLI
// has no user memory directory: its global memory is the single file
// ~/.gemini/GEMINI.md, loaded whole into every session. Its notes carry
// no frontmatter, so the result says PlainNotes.
func locateGemini(cwd string, env Env) (Roots, error) {
	// Gemini CLI writes its notes without frontmatter, wherever the project
	// root ends up (a config override keeps the reading).
	r := Roots{PlainNotes: true}
	r.Why = append(r.Why, "user: none (Gemini CLI's global memory is the single file ~/.gemini/GEMINI.md, not a directory)")
	home := env.Home
	if v := env.getenv("GEMINI_CLI_HOME"); v != "" {
		home = v
		r.Why = append(r.Why, "home: GEMINI_CLI_HOME")
	}
	if home == "" {
		return Roots{}, fmt.Errorf("agent gemini: %w", ErrNoHome)
	}
	runtimeDir := filepath.Join(home, ".gemini")
	if env.getenv("SANDBOX") == "sandbox-exec" {
		runtimeDir = filepath.Join(home, ".cache", ".gemini")
		r.Why = append(r.Why, "runtime dir: <home>/.cache/.gemini (SANDBOX=sandbox-exec)")
	}
	registry := filepath.Join(runtimeDir, "projects.json")
	key := cwd
	if windows {
		key = strings.ToLower(key)
	}
	slug, note := readJSONString(env, registry, "projects", key)
	if note != "" {
		r.Why = append(r.Why, note)
	}
	if slug == "" || strings.Trim(slug, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		r.Why = append(r.Why, "project: none (the working directory has no valid entry in "+registry+"; Gemini CLI has not run here)")
		return r, nil
	}
	dir := filepath.Join(runtimeDir, "tmp", slug)
	if owner, err := env.readFile(filepath.Join(dir, ".project_root")); err == nil {
		o := strings.TrimSpace(string(owner))
		if windows {
			o = strings.ToLower(o)
		}
		if filepath.Clean(o) != key {
			r.Why = append(r.Why, "project: none (tmp/"+slug+"/.project_root names another directory; Gemini CLI will pick a new id)")
			return r, nil
		}
	}
	r.Project = filepath.Join(dir, "memory")
	r.Why = append(r.Why, "project: <runtime>/tmp/<id>/memory, id from projects.json")
	return r, nil
}
