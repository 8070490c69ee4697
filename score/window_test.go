package score

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
	"pgregory.net/rapid"
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

// bodyWindowRef is BodyWindow by its definition: the first
// memory.BodyWindow runes as a range loop counts them.
func bodyWindowRef(body string) string {
	n := 0
	for i := range body {
		if n == memory.BodyWindow {
			return body[:i]
		}
		n++
	}
	return body
}

// TestPropBodyWindowEqualsRef: on bodies of one-, two-, three- and
// four-byte runes and invalid bytes around the window's length in runes
// and in bytes, BodyWindow cuts where the definition does.
func TestPropBodyWindowEqualsRef(t *testing.T) {
	pieces := []string{"a", "é", "й", "中", "ก", "😀", "\xff", "\xe4\xb8", "\x80"}
	// Invalid text with fewer rune-start bytes than runes: stray
	// continuation bytes and cut sequences, under 4×BodyWindow bytes.
	for _, p := range []string{"\x80", "\xe4\xb8", "é\x80", "\xe4\xb8a"} {
		for _, n := range []int{memory.BodyWindow - 1, memory.BodyWindow, memory.BodyWindow + 1, 2 * memory.BodyWindow} {
			body := strings.Repeat(p, n)[:min(n*len(p), 4*memory.BodyWindow)]
			if got, want := BodyWindow(body), bodyWindowRef(body); got != want {
				t.Fatalf("%d × %+q: BodyWindow cuts at %d bytes, the definition at %d", n, p, len(got), len(want))
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.SliceOfN(rapid.SampledFrom(pieces), 1, 4).Draw(t, "pieces")
		n := rapid.IntRange(memory.BodyWindow-8, 4*memory.BodyWindow+8).Draw(t, "runes")
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(p[i%len(p)])
		}
		body := b.String()[:rapid.IntRange(0, b.Len()).Draw(t, "cut")]
		if got, want := BodyWindow(body), bodyWindowRef(body); got != want {
			t.Fatalf("BodyWindow cuts at %d bytes, the definition at %d", len(got), len(want))
		}
	})
}

// TestPropStartsAtMost checks startsAtMost, which counts 32 and 8 bytes
// at a time, against a count byte by byte, on any bytes (valid UTF-8 or
// not) of lengths that end in every phase of its loops, at bounds on
// either side of the count.
func TestPropStartsAtMost(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOfN(rapid.SampledFrom([]byte{'a', ' ', 0x80, 0xBF, 0xC3, 0xE3, 0xF0, 0xFF}), 0, 300).Draw(t, "bytes"))
		starts := 0
		for i := range len(s) {
			if s[i]&0xC0 != 0x80 {
				starts++
			}
		}
		n := starts + rapid.IntRange(-2, 2).Draw(t, "slack")
		if got, want := startsAtMost(s, n), starts <= n; got != want {
			t.Fatalf("startsAtMost(%q, %d) = %v; %d starts", s, n, got, starts)
		}
	})
}
