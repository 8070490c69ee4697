package readfloor

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadCountsTopicFilesRecursively(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\ntype: user\n---\nbody"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project/a.md")
	write("project/sub/b.md")
	write("project/notes.txt")
	write("user/c.md")
	roots := []string{filepath.Join(dir, "project"), filepath.Join(dir, "user"), filepath.Join(dir, "missing")}
	for _, workers := range []int{0, 1, 2, 8} {
		if got := Read(roots, workers, 16); got != 3 {
			t.Errorf("workers=%d: Read = %d files, want 3", workers, got)
		}
		if got := ReadStat(roots, workers, 16); got != 3 {
			t.Errorf("workers=%d: ReadStat = %d files, want 3", workers, got)
		}
		if got := Stat(roots, workers); got != 3 {
			t.Errorf("workers=%d: Stat = %d files, want 3", workers, got)
		}
	}
}
