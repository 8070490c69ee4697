package memory

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// windowEnd agrees with its definition, the byte length of the first n
// runes, on any valid UTF-8: runs of ASCII, two-, three- and four-byte
// runes in any mix, and windows that end anywhere in an eight-byte block.
func TestPropWindowEnd(t *testing.T) {
	pieces := []string{"a", "abcdefg", "é", "漢", "かな", "😀", "ไทย", " ", "\n"}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for range rapid.IntRange(0, 400).Draw(t, "pieces") {
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		if rapid.Bool().Draw(t, "any") {
			b.WriteString(rapid.String().Draw(t, "tail"))
		}
		s := b.String()
		r := []rune(s)
		n := rapid.IntRange(0, len(r)+2).Draw(t, "n")
		want := len(s)
		if len(r) > n {
			want = len(string(r[:n]))
		}
		if got := windowEnd([]byte(s), n); got != want {
			t.Fatalf("windowEnd(%q, %d) = %d, want %d", s, n, got, want)
		}
	})
}
