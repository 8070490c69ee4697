package readfloor

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
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

func TestDecodeCountsRunes(t *testing.T) {
	for _, c := range []struct {
		texts []string
		want  int
	}{
		{nil, 0},
		{[]string{"", ""}, 0},
		{[]string{"deploy", "server"}, 12},
		{[]string{"部署服务器"}, 5},
		{[]string{"デプロイ", "a"}, 5},
		{[]string{"\xff\xfe", "\xe9\x83"}, 4}, // every invalid byte is one rune
		{[]string{"🙂x"}, 2},
	} {
		if got := Decode(c.texts); got != c.want {
			t.Errorf("Decode(%q) = %d, want %d", c.texts, got, c.want)
		}
	}
}

// Decode visits every byte once, whatever the bytes: its count is
// utf8.RuneCountInString's.
func TestPropDecodeIsRuneCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Any bytes: valid UTF-8 of every length, cut sequences, stray
		// continuation bytes.
		text := rapid.Custom(func(t *rapid.T) string {
			return string(rapid.SliceOf(rapid.OneOf(rapid.Byte(), rapid.ByteRange(0x80, 0xbf), rapid.ByteRange(0xc2, 0xf4))).Draw(t, "b"))
		})
		texts := rapid.SliceOf(text).Draw(t, "texts")
		want := 0
		for _, s := range texts {
			want += utf8.RuneCountInString(s)
		}
		if got := Decode(texts); got != want {
			t.Fatalf("Decode = %d, want %d", got, want)
		}
	})
}
