package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
)

func TestSanitizeProjectPath(t *testing.T) {
	tests := []struct {
		in      string
		windows bool
		want    string
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
		if got := sanitizeProjectPath(tt.in, tt.windows); got != tt.want {
			t.Errorf("sanitizeProjectPath(%q, %v) = %q, want %q", tt.in, tt.windows, got, tt.want)
		}
	}
}

func TestQwenDirs(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	project, user, err := qwenDirs()
	if err != nil {
		t.Fatal(err)
	}
	realRepo, _ := filepath.EvalSymlinks(repo)
	wantProject := filepath.Join(home, ".qwen", "projects", sanitizeProjectPath(realRepo, false), "memory")
	if project != wantProject || user != filepath.Join(home, ".qwen", "memories") {
		t.Errorf("qwenDirs = %q, %q; want %q and ~/.qwen/memories", project, user, wantProject)
	}
}

func TestGitRootWithoutRepository(t *testing.T) {
	dir := t.TempDir()
	// A temporary directory may sit inside some repository on a developer
	// machine; only assert when none is above it.
	if got := gitRoot(dir); got != dir {
		if _, err := os.Lstat(filepath.Join(got, ".git")); err != nil {
			t.Errorf("gitRoot(%q) = %q, which holds no .git", dir, got)
		}
	}
}

func TestResolveDirs(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	qp, qu, err := qwenDirs()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		project, user string
		qwen          bool
		want          memory.Roots
	}{
		{"defaults to the examples", "", "", false, memory.Roots{Project: exampleProjectDir, User: exampleUserDir}},
		{"only project given", "p", "", false, memory.Roots{Project: "p"}},
		{"only user given", "", "u", false, memory.Roots{User: "u"}},
		{"both given", "p", "u", false, memory.Roots{Project: "p", User: "u"}},
		{"qwen", "", "", true, memory.Roots{Project: qp, User: qu}},
		{"qwen with user override", "", "u", true, memory.Roots{Project: qp, User: "u"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveDirs(tt.project, tt.user, tt.qwen)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("resolveDirs (-want +got):\n%s", diff)
			}
		})
	}
}
