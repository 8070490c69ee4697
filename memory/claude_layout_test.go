package memory

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScanClaudeLayout scans a copy of examples/memory/claude, Claude Code's
// layout, with two aliases of its index added: a symbolic link and a hard
// link named like topics. Every topic is read with its nested type; the
// index is never a candidate under any name.
func TestScanClaudeLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "examples", "memory", "claude"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("MEMORY.md", filepath.Join(dir, "index-alias.md")); err != nil {
		t.Skip("no symlinks:", err)
	}
	hardLinked := os.Link(filepath.Join(dir, "MEMORY.md"), filepath.Join(dir, "index-copy.md")) == nil
	res, err := Scan(context.Background(), Roots{Project: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Type{}
	for _, d := range res.Docs {
		got[d.RelPath] = d.Type
	}
	want := map[string]Type{
		"release-freeze.md":  TypeProject,
		"api-versioning.md":  TypeProject,
		"user-role.md":       TypeUser,
		"small-prs.md":       TypeFeedback,
		"no-force-push.md":   TypeFeedback,
		"device-testing.md":  TypeFeedback,
		"crash-dashboard.md": TypeReference,
		"localization.md":    TypeReference,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("documents (-want +got):\n%s", diff)
	}
	// A hard link cannot be told from a topic by its name; Claude Code's
	// index has no frontmatter, so it is a counted skip, never a document.
	var wantSkips SkipCounts
	if hardLinked {
		wantSkips[SkipNoFrontmatter] = 1
	}
	if res.Skipped != wantSkips {
		t.Errorf("skipped %v, want %v", res.Skipped, wantSkips)
	}
	for _, d := range res.Docs {
		if d.RelPath == "release-freeze.md" && d.Description != "Merge freeze for the mobile release cut, starting 2026-03-05" {
			t.Errorf("folded description read as %q", d.Description)
		}
	}
}
