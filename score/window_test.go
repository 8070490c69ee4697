package score

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// TestBodyWindow: the window is the first memory.BodyWindow runes, cut on
// a rune boundary, whether or not the text is ASCII (which takes a
// shortcut) or turns non-ASCII inside or past the window.
func TestBodyWindow(t *testing.T) {
	w := memory.BodyWindow
	cases := []struct {
		name, body string
	}{
		{"short", "deploy"},
		{"ascii exactly the window", strings.Repeat("a", w)},
		{"ascii past the window", strings.Repeat("a", w+500)},
		{"upper-case ascii past the window", strings.Repeat("A", w+1)},
		{"multibyte inside the window", strings.Repeat("a", w-3) + strings.Repeat("é", 10)},
		{"multibyte right after the window", strings.Repeat("a", w) + "é"},
		{"all multibyte", strings.Repeat("сервер ", w)},
	}
	for _, c := range cases {
		got := BodyWindow(c.body)
		want := c.body
		if utf8.RuneCountInString(want) > w {
			runes := []rune(want)
			want = string(runes[:w])
		}
		if got != want {
			t.Errorf("%s: window of %d bytes, want %d", c.name, len(got), len(want))
		}
	}
}
