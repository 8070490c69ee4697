package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingRoots: a root that does not exist or is a file is an error
// with exit 1 and one line on stderr, unless it is one of two roots and
// the other exists; then it is read as absent and the output says so.
func TestMissingRoots(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	if err := os.MkdirAll(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file.md")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string // the whole of stderr
		inOut  string
	}{
		{name: "project missing", args: []string{"--project", missing}, code: 1,
			stderr: "memrecall scan: no memory to read: project memory " + missing + " does not exist\n"},
		{name: "user missing", args: []string{"--user", missing}, code: 1,
			stderr: "memrecall scan: no memory to read: user memory " + missing + " does not exist\n"},
		{name: "both missing", args: []string{"--project", missing, "--user", missing + "2"}, code: 1,
			stderr: "memrecall scan: no memory to read: neither " + missing + " nor " + missing + "2 exists\n"},
		{name: "a file", args: []string{"--project", file}, code: 1,
			stderr: "memrecall scan: project memory " + file + " is a file, not a directory\n"},
		{name: "a file beside a tree", args: []string{"--project", tree, "--user", file}, code: 1,
			stderr: "memrecall scan: user memory " + file + " is a file, not a directory\n"},
		{name: "the other exists", args: []string{"--project", tree, "--user", missing}, code: 0,
			inOut: "user: " + missing + " does not exist; read as absent"},
		{name: "one tree", args: []string{"--project", tree}, code: 0, inOut: "0 documents"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"scan"}, tc.args...), &out, &errb)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errb.String())
			}
			if tc.code != 0 && (errb.String() != tc.stderr || out.Len() != 0) {
				t.Errorf("stderr %q, stdout %q; want only stderr %q", errb.String(), out.String(), tc.stderr)
			}
			if tc.code == 0 && !strings.Contains(out.String(), tc.inOut) {
				t.Errorf("stdout lacks %q:\n%s", tc.inOut, out.String())
			}
		})
	}
}

// TestExampleTreeOutsideTheRepository: the default example tree is read
// relative to the repository root; elsewhere the command says so instead
// of listing nothing.
func TestExampleTreeOutsideTheRepository(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, cmd := range [][]string{{"scan"}, {"query", "deploy"}} {
		var out, errb bytes.Buffer
		if code := run(cmd, &out, &errb); code != 1 {
			t.Fatalf("%v: exit %d, want 1", cmd, code)
		}
		if lines := strings.Count(errb.String(), "\n"); lines != 1 || !strings.Contains(errb.String(), "give --project, --user or --agent") || out.Len() != 0 {
			t.Errorf("%v: stderr %q (%d lines), stdout %q", cmd, errb.String(), lines, out.String())
		}
	}
}
