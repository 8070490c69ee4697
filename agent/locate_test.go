package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeEnv is an Env over a map of environment variables and a map of
// files; every other file does not exist.
func fakeEnv(home string, vars, files map[string]string) Env {
	return Env{
		Home:   home,
		Getenv: func(k string) string { return vars[k] },
		ReadFile: func(p string) ([]byte, error) {
			if s, ok := files[p]; ok {
				return []byte(s), nil
			}
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		},
	}
}

// tree is a throw-away filesystem layout for the location rules: a
// repository with a .git directory and a subdirectory, a linked worktree
// of it, a submodule-like .git file and a directory outside any
// repository.
type tree struct {
	home, repo, sub, worktree, submodule, plain string
}

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func write(t *testing.T, file, content string) {
	t.Helper()
	mkdirs(t, filepath.Dir(file))
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newTree(t *testing.T) tree {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := tree{
		home:      filepath.Join(base, "home"),
		repo:      filepath.Join(base, "src", "billing.api"),
		worktree:  filepath.Join(base, "wt", "feature"),
		submodule: filepath.Join(base, "src", "billing.api", "vendor", "lib"),
		plain:     filepath.Join(base, "scratch"),
	}
	tr.sub = filepath.Join(tr.repo, "a", "b")
	mkdirs(t, tr.home, filepath.Join(tr.repo, ".git", "worktrees", "feature"), tr.sub, tr.plain,
		filepath.Join(tr.repo, ".git", "modules", "lib"))
	// A linked worktree, as `git worktree add` writes it.
	write(t, filepath.Join(tr.worktree, ".git"), "gitdir: "+filepath.Join(tr.repo, ".git", "worktrees", "feature")+"\n")
	write(t, filepath.Join(tr.repo, ".git", "worktrees", "feature", "commondir"), "../..\n")
	write(t, filepath.Join(tr.repo, ".git", "worktrees", "feature", "gitdir"), filepath.Join(tr.worktree, ".git")+"\n")
	// A submodule: a .git file without a commondir behind it.
	write(t, filepath.Join(tr.submodule, ".git"), "gitdir: ../../.git/modules/lib\n")
	return tr
}

func TestLocate(t *testing.T) {
	tr := newTree(t)
	claudeProjects := filepath.Join(tr.home, ".claude", "projects")
	slug := func(p string) string { return sanitizePath(p, false) }
	claudeUser := "user: none (Claude Code has no user memory scope)"
	geminiUser := "user: none (Gemini CLI's global memory is the single file ~/.gemini/GEMINI.md, not a directory)"
	geminiRuntime := filepath.Join(tr.home, ".gemini")
	registry := filepath.Join(geminiRuntime, "projects.json")
	tests := []struct {
		name  string
		agent Name
		cwd   string
		vars  map[string]string
		files map[string]string
		want  Roots
	}{
		{
			name: "claude: git root of a subdirectory", agent: Claude, cwd: tr.sub,
			want: Roots{Project: filepath.Join(claudeProjects, slug(tr.repo), "memory"),
				Why: []string{claudeUser, "project: projects/<sanitized git root>/memory"}},
		},
		{
			name: "claude: a linked worktree shares the main tree's memory", agent: Claude, cwd: tr.worktree,
			want: Roots{Project: filepath.Join(claudeProjects, slug(tr.repo), "memory"),
				Why: []string{claudeUser, "project: projects/<sanitized main worktree of the git root>/memory"}},
		},
		{
			name: "claude: a submodule is its own project", agent: Claude, cwd: tr.submodule,
			want: Roots{Project: filepath.Join(claudeProjects, slug(tr.submodule), "memory"),
				Why: []string{claudeUser, "project: projects/<sanitized git root>/memory"}},
		},
		{
			name: "claude: no repository", agent: Claude, cwd: tr.plain,
			want: Roots{Project: filepath.Join(claudeProjects, slug(tr.plain), "memory"),
				Why: []string{claudeUser, "project: projects/<sanitized working directory (no .git above it)>/memory"}},
		},
		{
			name: "claude: autoMemoryDirectory with ~/", agent: Claude, cwd: tr.repo,
			files: map[string]string{filepath.Join(tr.home, ".claude", "settings.json"): `{"autoMemoryDirectory": "~/notes/mem/"}`},
			want: Roots{Project: filepath.Join(tr.home, "notes", "mem"),
				Why: []string{claudeUser, "project: autoMemoryDirectory in " + filepath.Join(tr.home, ".claude", "settings.json")}},
		},
		{
			name: "claude: autoMemoryDirectory climbing out of home is ignored", agent: Claude, cwd: tr.repo,
			files: map[string]string{filepath.Join(tr.home, ".claude", "settings.json"): `{"autoMemoryDirectory": "~/../etc"}`},
			want: Roots{Project: filepath.Join(claudeProjects, slug(tr.repo), "memory"),
				Why: []string{claudeUser,
					"autoMemoryDirectory in " + filepath.Join(tr.home, ".claude", "settings.json") + " is not an absolute or ~/ path, ignored",
					"project: projects/<sanitized git root>/memory"}},
		},
		{
			name: "claude: relative autoMemoryDirectory is ignored", agent: Claude, cwd: tr.repo,
			files: map[string]string{filepath.Join(tr.home, ".claude", "settings.json"): `{"autoMemoryDirectory": "mem"}`},
			want: Roots{Project: filepath.Join(claudeProjects, slug(tr.repo), "memory"),
				Why: []string{claudeUser,
					"autoMemoryDirectory in " + filepath.Join(tr.home, ".claude", "settings.json") + " is not an absolute or ~/ path, ignored",
					"project: projects/<sanitized git root>/memory"}},
		},
		{
			name: "claude: broken settings file does not stop recall", agent: Claude, cwd: tr.repo,
			files: map[string]string{filepath.Join(tr.home, ".claude", "settings.json"): `{"autoMemoryDirectory": 3}`},
			want: Roots{Project: filepath.Join(claudeProjects, slug(tr.repo), "memory"),
				Why: []string{claudeUser,
					filepath.Join(tr.home, ".claude", "settings.json") + ": autoMemoryDirectory is not a string, ignored",
					"project: projects/<sanitized git root>/memory"}},
		},
		{
			name: "claude: managed settings win over the user's", agent: Claude, cwd: tr.repo,
			files: map[string]string{
				claudeManagedSettings():                            `{"autoMemoryDirectory": "/srv/mem"}`,
				filepath.Join(tr.home, ".claude", "settings.json"): `{"autoMemoryDirectory": "/home/x/mem"}`,
			},
			want: Roots{Project: "/srv/mem",
				Why: []string{claudeUser, "project: autoMemoryDirectory in " + claudeManagedSettings()}},
		},
		{
			name: "claude: CLAUDE_CONFIG_DIR moves settings and projects", agent: Claude, cwd: tr.repo,
			vars: map[string]string{"CLAUDE_CONFIG_DIR": "/cfg"},
			want: Roots{Project: filepath.Join("/cfg", "projects", slug(tr.repo), "memory"),
				Why: []string{claudeUser, "config dir: CLAUDE_CONFIG_DIR", "project: projects/<sanitized git root>/memory"}},
		},
		{
			name: "claude: CLAUDE_CODE_REMOTE_MEMORY_DIR moves projects", agent: Claude, cwd: tr.repo,
			vars: map[string]string{"CLAUDE_CODE_REMOTE_MEMORY_DIR": "/remote"},
			want: Roots{Project: filepath.Join("/remote", "projects", slug(tr.repo), "memory"),
				Why: []string{claudeUser, "projects under CLAUDE_CODE_REMOTE_MEMORY_DIR", "project: projects/<sanitized git root>/memory"}},
		},
		{
			name: "claude: cowork override wins over settings", agent: Claude, cwd: tr.repo,
			vars:  map[string]string{"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "/cowork/mem"},
			files: map[string]string{filepath.Join(tr.home, ".claude", "settings.json"): `{"autoMemoryDirectory": "/x"}`},
			want:  Roots{Project: "/cowork/mem", Why: []string{claudeUser, "project: CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"}},
		},
		{
			name: "qwen: defaults", agent: Qwen, cwd: tr.sub,
			want: Roots{
				Project: filepath.Join(tr.home, ".qwen", "projects", slug(tr.repo), "memory"),
				User:    filepath.Join(tr.home, ".qwen", "memories"),
				Why:     []string{"base: ~/.qwen", "user: <base>/memories", "project: <base>/projects/<sanitized git root>/memory"}},
		},
		{
			name: "qwen: a worktree is its own project", agent: Qwen, cwd: tr.worktree,
			want: Roots{
				Project: filepath.Join(tr.home, ".qwen", "projects", slug(tr.worktree), "memory"),
				User:    filepath.Join(tr.home, ".qwen", "memories"),
				Why:     []string{"base: ~/.qwen", "user: <base>/memories", "project: <base>/projects/<sanitized git root>/memory"}},
		},
		{
			name: "qwen: QWEN_HOME", agent: Qwen, cwd: tr.plain,
			vars: map[string]string{"QWEN_HOME": "~/alt"},
			want: Roots{
				Project: filepath.Join(tr.home, "alt", "projects", slug(tr.plain), "memory"),
				User:    filepath.Join(tr.home, "alt", "memories"),
				Why:     []string{"base: QWEN_HOME", "user: <base>/memories", "project: <base>/projects/<sanitized working directory (no .git above it)>/memory"}},
		},
		{
			name: "qwen: QWEN_RUNTIME_DIR wins over QWEN_HOME", agent: Qwen, cwd: tr.repo,
			vars: map[string]string{"QWEN_HOME": "/qh", "QWEN_RUNTIME_DIR": "/rt"},
			want: Roots{
				Project: filepath.Join("/rt", "projects", slug(tr.repo), "memory"),
				User:    filepath.Join("/rt", "memories"),
				Why:     []string{"base: QWEN_RUNTIME_DIR", "user: <base>/memories", "project: <base>/projects/<sanitized git root>/memory"}},
		},
		{
			name: "qwen: relative QWEN_RUNTIME_DIR is taken from the working directory", agent: Qwen, cwd: tr.repo,
			vars: map[string]string{"QWEN_RUNTIME_DIR": ".rt"},
			want: Roots{
				Project: filepath.Join(tr.repo, ".rt", "projects", slug(tr.repo), "memory"),
				User:    filepath.Join(tr.repo, ".rt", "memories"),
				Why:     []string{"base: QWEN_RUNTIME_DIR", "user: <base>/memories", "project: <base>/projects/<sanitized git root>/memory"}},
		},
		{
			name: "qwen: QWEN_CODE_MEMORY_BASE_DIR wins over both", agent: Qwen, cwd: tr.repo,
			vars: map[string]string{"QWEN_HOME": "/qh", "QWEN_RUNTIME_DIR": "/rt", "QWEN_CODE_MEMORY_BASE_DIR": "/mb"},
			want: Roots{
				Project: filepath.Join("/mb", "projects", slug(tr.repo), "memory"),
				User:    filepath.Join("/mb", "memories"),
				Why:     []string{"base: QWEN_CODE_MEMORY_BASE_DIR", "user: <base>/memories", "project: <base>/projects/<sanitized git root>/memory"}},
		},
		{
			name: "qwen: QWEN_CODE_MEMORY_LOCAL=1 keeps project memory in the working directory", agent: Qwen, cwd: tr.sub,
			vars: map[string]string{"QWEN_CODE_MEMORY_LOCAL": "1", "QWEN_CODE_MEMORY_BASE_DIR": "/mb"},
			want: Roots{
				Project: filepath.Join(tr.sub, ".qwen", "memory"),
				User:    filepath.Join("/mb", "memories"),
				Why:     []string{"base: QWEN_CODE_MEMORY_BASE_DIR", "user: <base>/memories", "project: QWEN_CODE_MEMORY_LOCAL=1, <working directory>/.qwen/memory"}},
		},
		{
			name: "qwen: QWEN_CODE_MEMORY_LOCAL other than 1 is off", agent: Qwen, cwd: tr.repo,
			vars: map[string]string{"QWEN_CODE_MEMORY_LOCAL": "true"},
			want: Roots{
				Project: filepath.Join(tr.home, ".qwen", "projects", slug(tr.repo), "memory"),
				User:    filepath.Join(tr.home, ".qwen", "memories"),
				Why:     []string{"base: ~/.qwen", "user: <base>/memories", "project: <base>/projects/<sanitized git root>/memory"}},
		},
		{
			name: "qwen: workspace project scope", agent: Qwen, cwd: tr.sub,
			vars: map[string]string{"QWEN_CODE_MEMORY_PROJECT_SCOPE": " Workspace "},
			want: Roots{
				Project: filepath.Join(tr.home, ".qwen", "projects", slug(tr.sub), "memory"),
				User:    filepath.Join(tr.home, ".qwen", "memories"),
				Why:     []string{"base: ~/.qwen", "user: <base>/memories", "project: <base>/projects/<sanitized working directory (QWEN_CODE_MEMORY_PROJECT_SCOPE=workspace)>/memory"}},
		},
		{
			name: "gemini: registered project", agent: Gemini, cwd: tr.repo,
			files: map[string]string{registry: `{"projects": {"` + tr.repo + `": "billing-api"}}`},
			want: Roots{PlainNotes: true, Project: filepath.Join(geminiRuntime, "tmp", "billing-api", "memory"),
				Why: []string{geminiUser, "project: <runtime>/tmp/<id>/memory, id from projects.json"}},
		},
		{
			name: "gemini: keyed by the working directory, not the git root", agent: Gemini, cwd: tr.sub,
			files: map[string]string{registry: `{"projects": {"` + tr.repo + `": "billing-api"}}`},
			want:  Roots{PlainNotes: true, Why: []string{geminiUser, "project: none (the working directory has no valid entry in " + registry + "; Gemini CLI has not run here)"}},
		},
		{
			name: "gemini: ownership marker agrees", agent: Gemini, cwd: tr.repo,
			files: map[string]string{
				registry: `{"projects": {"` + tr.repo + `": "billing-api-1"}}`,
				filepath.Join(geminiRuntime, "tmp", "billing-api-1", ".project_root"): tr.repo + "\n",
			},
			want: Roots{PlainNotes: true, Project: filepath.Join(geminiRuntime, "tmp", "billing-api-1", "memory"),
				Why: []string{geminiUser, "project: <runtime>/tmp/<id>/memory, id from projects.json"}},
		},
		{
			name: "gemini: ownership marker names another directory", agent: Gemini, cwd: tr.repo,
			files: map[string]string{
				registry: `{"projects": {"` + tr.repo + `": "billing-api"}}`,
				filepath.Join(geminiRuntime, "tmp", "billing-api", ".project_root"): "/elsewhere",
			},
			want: Roots{PlainNotes: true, Why: []string{geminiUser, "project: none (tmp/billing-api/.project_root names another directory; Gemini CLI will pick a new id)"}},
		},
		{
			name: "gemini: an id outside [a-z0-9-] is not trusted", agent: Gemini, cwd: tr.repo,
			files: map[string]string{registry: `{"projects": {"` + tr.repo + `": "../../etc"}}`},
			want:  Roots{PlainNotes: true, Why: []string{geminiUser, "project: none (the working directory has no valid entry in " + registry + "; Gemini CLI has not run here)"}},
		},
		{
			name: "gemini: GEMINI_CLI_HOME and sandbox-exec", agent: Gemini, cwd: tr.repo,
			vars: map[string]string{"GEMINI_CLI_HOME": "/gh", "SANDBOX": "sandbox-exec"},
			files: map[string]string{
				filepath.Join("/gh", ".cache", ".gemini", "projects.json"): `{"projects": {"` + tr.repo + `": "p"}}`,
			},
			want: Roots{PlainNotes: true, Project: filepath.Join("/gh", ".cache", ".gemini", "tmp", "p", "memory"),
				Why: []string{geminiUser, "home: GEMINI_CLI_HOME", "runtime dir: <home>/.cache/.gemini (SANDBOX=sandbox-exec)",
					"project: <runtime>/tmp/<id>/memory, id from projects.json"}},
		},
		{
			name: "gemini: corrupt registry", agent: Gemini, cwd: tr.repo,
			files: map[string]string{registry: `{"projects": `},
			want: Roots{PlainNotes: true, Why: []string{geminiUser,
				registry + " is not valid JSON (unexpected end of JSON input), ignored",
				"project: none (the working directory has no valid entry in " + registry + "; Gemini CLI has not run here)"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Locate(tt.agent, tt.cwd, fakeEnv(tr.home, tt.vars, tt.files))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Locate(%s, %s) mismatch (-want +got):\n%s", tt.agent, tt.cwd, diff)
			}
		})
	}
}

func TestLocateErrors(t *testing.T) {
	tr := newTree(t)
	tests := []struct {
		name  string
		agent Name
		cwd   string
		env   Env
		want  error
	}{
		{"relative cwd", Claude, "src/x", fakeEnv(tr.home, nil, nil), ErrRelativeCwd},
		{"unknown agent", Name("cursor"), tr.repo, fakeEnv(tr.home, nil, nil), ErrUnknownAgent},
		{"claude without home", Claude, tr.repo, fakeEnv("", nil, nil), ErrNoHome},
		{"qwen without home", Qwen, tr.repo, fakeEnv("", nil, nil), ErrNoHome},
		{"gemini without home", Gemini, tr.repo, fakeEnv("", nil, nil), ErrNoHome},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Locate(tt.agent, tt.cwd, tt.env)
			if !errors.Is(err, tt.want) {
				t.Errorf("Locate error = %v, want %v", err, tt.want)
			}
		})
	}
}

// A home given by an environment variable needs no home directory.
func TestLocateWithoutHomeButEnv(t *testing.T) {
	tr := newTree(t)
	got, err := Locate(Qwen, tr.repo, fakeEnv("", map[string]string{"QWEN_HOME": "/qh"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("/qh", "memories"); got.User != want {
		t.Errorf("User = %q, want %q", got.User, want)
	}
}

func TestLocateLongClaudeSlug(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(base, strings.Repeat("d", 100), strings.Repeat("e", 100))
	mkdirs(t, deep)
	got, err := Locate(Claude, deep, fakeEnv(base, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got.Project != "" || !strings.Contains(got.Why[len(got.Why)-1], "longer than 200") {
		t.Errorf("Locate on a %d-byte path = %+v, want no project and a reason", len(deep), got)
	}
}

// A symbolic link to the working directory locates the same memory as the
// directory itself (the agents resolve their working directory).
func TestLocateResolvesSymlinks(t *testing.T) {
	tr := newTree(t)
	link := filepath.Join(filepath.Dir(tr.home), "link")
	if err := os.Symlink(tr.sub, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	for _, a := range Names() {
		env := fakeEnv(tr.home, nil, nil)
		viaLink, err1 := Locate(a, link, env)
		direct, err2 := Locate(a, tr.sub, env)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if diff := cmp.Diff(direct, viaLink); diff != "" {
			t.Errorf("%s: via a symlink (-direct +link):\n%s", a, diff)
		}
	}
}

func TestSanitizePath(t *testing.T) {
	tests := []struct {
		in    string
		lower bool
		want  string
	}{
		{"/home/ana/src/billing-api", false, "-home-ana-src-billing-api"},
		{"/home/ana/my.repo_v2", false, "-home-ana-my-repo-v2"},
		{"/home/ana/项目", false, "-home-ana---"},
		{"/home/ana/😀", false, "-home-ana---"}, // outside the BMP: two UTF-16 units
		{"/Users/Ana/X", false, "-Users-Ana-X"},
		{`C:\Users\Ana\x`, true, "c--users-ana-x"},
		{"", false, ""},
	}
	for _, tt := range tests {
		if got := sanitizePath(tt.in, tt.lower); got != tt.want {
			t.Errorf("sanitizePath(%q, %v) = %q, want %q", tt.in, tt.lower, got, tt.want)
		}
	}
}

func TestOSEnv(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("MEMRECALL_AGENT_TEST", "x")
	env, err := OSEnv()
	if err != nil {
		t.Fatal(err)
	}
	if env.Home != home || env.Getenv("MEMRECALL_AGENT_TEST") != "x" || env.ReadFile == nil {
		t.Errorf("OSEnv() = home %q; want %q with the process environment", env.Home, home)
	}
}
