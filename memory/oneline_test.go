package memory

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestOneLine(t *testing.T) {
	type out struct {
		Line string
		Cut  bool
	}
	for _, c := range []struct {
		in   string
		max  int
		want out
	}{
		{"plain", -1, out{"plain", false}},
		{"  a\n\tb\r\n c  ", -1, out{"a b c", false}},
		{"title\u2028# forged heading", -1, out{"title # forged heading", false}},
		{"bad \xff byte", -1, out{"bad \uFFFD byte", false}},
		{"abcdef", 3, out{"abc", true}},
		{"abc   ", 3, out{"abc", false}},
		{"ab cd", 3, out{"ab", true}},
		{"漢字かな", 2, out{"漢字", true}},
		{"", 0, out{"", false}},
		{"x", 0, out{"", true}},
		// The space before a non-ASCII rune takes the last place: the rune is
		// cut (found by the rapid property below).
		{"A\n⺀", 2, out{"A", true}},
		{"A\nB", 2, out{"A", true}},
	} {
		line, cut := OneLine(c.in, c.max)
		if diff := cmp.Diff(c.want, out{line, cut}); diff != "" {
			t.Errorf("OneLine(%q, %d) (-want +got):\n%s", c.in, c.max, diff)
		}
	}
}

// refOneLine is a plain restatement of OneLine without a limit: split on
// white space and line-breaking runes (each invalid byte decoding to
// U+FFFD), join with single spaces.
func refOneLine(s string) string {
	var rs []rune
	for _, r := range s {
		rs = append(rs, r)
	}
	return strings.Join(strings.FieldsFunc(string(rs), func(r rune) bool {
		return BreaksLine(r) || unicode.IsSpace(r)
	}), " ")
}

// TestOneLineMatchesReference checks the optimised flattening against the
// plain one, with and without a rune limit, and that cut says exactly
// whether the limit left something out.
func TestOneLineMatchesReference(t *testing.T) {
	special := []rune{'\n', '\r', '\t', ' ', '\u0085', '\u2028', '\u2029', '\x00', 'é', '漢', '🙂', 'a', 'z', '-', '/'}
	valid := rapid.StringOfN(rapid.OneOf(
		rapid.RuneFrom(special),
		rapid.RuneFrom(nil, unicode.Latin, unicode.Han, unicode.Cyrillic),
		rapid.Rune(),
	), 0, 700, -1)
	invalid := rapid.Custom(func(t *rapid.T) string {
		return string(rapid.SliceOfN(rapid.Byte(), 0, 64).Draw(t, "bytes"))
	})
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(valid, valid, valid, invalid).Draw(t, "s")
		n := rapid.IntRange(-1, 600).Draw(t, "maxRunes")
		full := refOneLine(s)
		want, wantCut := full, false
		if n >= 0 && utf8.RuneCountInString(full) > n {
			want, wantCut = strings.TrimRight(string([]rune(full)[:n]), " "), true
		}
		if got, cut := OneLine(s, n); got != want || cut != wantCut {
			t.Fatalf("OneLine(%q, %d) = %q, %v; want %q, %v", s, n, got, cut, want, wantCut)
		}
	})
}
