package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memrecall/memrecall/memory"
)

// The example tree the command runs on by default, relative to the
// current directory (the repository root for `go run ./cmd/memrecall`).
const (
	exampleProjectDir = "examples/memory/project"
	exampleUserDir    = "examples/memory/user"
)

// dirFlags are the memory-location flags shared by scan and query.
type dirFlags struct {
	project, user string
	qwen          bool
}

// addDirFlags registers --project, --user and --qwen on fs.
func addDirFlags(fs *flag.FlagSet) *dirFlags {
	d := &dirFlags{}
	fs.StringVar(&d.project, "project", "", "project memory `dir` (default "+exampleProjectDir+")")
	fs.StringVar(&d.user, "user", "", "user memory `dir` (default "+exampleUserDir+")")
	fs.BoolVar(&d.qwen, "qwen", false, "read Qwen Code's memory for the current directory's git root")
	return d
}

// roots resolves the flags; see resolveDirs.
func (d *dirFlags) roots() (memory.Roots, error) {
	return resolveDirs(d.project, d.user, d.qwen)
}

// resolveDirs turns the location flags into roots. With --qwen both roots
// are Qwen Code's locations (qwenDirs) and an explicit --project or --user
// replaces its half. Without it, no flag means the example tree; giving
// one or both means exactly those (an omitted one is absent).
func resolveDirs(project, user string, qwen bool) (memory.Roots, error) {
	switch {
	case qwen:
		p, u, err := qwenDirs()
		if err != nil {
			return memory.Roots{}, err
		}
		if project != "" {
			p = project
		}
		if user != "" {
			u = user
		}
		return memory.Roots{Project: p, User: u}, nil
	case project == "" && user == "":
		return memory.Roots{Project: exampleProjectDir, User: exampleUserDir}, nil
	}
	return memory.Roots{Project: project, User: user}, nil
}

// qwenDirs returns Qwen Code's memory locations for the current directory:
// ~/.qwen/projects/<sanitized git root>/memory and ~/.qwen/memories. See
// docs/decisions/0101-qwen-project-dir.md for the sanitising rule.
func qwenDirs() (project, user string, err error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", "", fmt.Errorf("qwen memory: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", "", fmt.Errorf("qwen memory: %w", err)
	}
	root := gitRoot(resolved(wd))
	base := filepath.Join(home, ".qwen")
	project = filepath.Join(base, "projects", sanitizeProjectPath(root, filepath.Separator == '\\'), "memory")
	return project, filepath.Join(base, "memories"), nil
}

// resolved returns path with symlinks resolved, or path itself when that
// fails (Qwen Code resolves the working directory the same way).
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// gitRoot returns the nearest directory at or above dir that holds a .git
// entry (a directory, or a file in worktrees and submodules), else dir.
func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		} else if !errors.Is(err, os.ErrNotExist) {
			return dir
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// sanitizeProjectPath names a project's directory the way Qwen Code does:
// every character but ASCII letters and digits becomes '-', counted in
// UTF-16 code units as JavaScript's replace does (a character outside the
// Basic Multilingual Plane gives two), and on Windows the path is
// lower-cased first.
func sanitizeProjectPath(path string, windows bool) string {
	if windows {
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
