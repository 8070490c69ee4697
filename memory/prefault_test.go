package memory

import (
	"bytes"
	"testing"
)

// prefault leaves any buffer as it was, whatever its length and
// alignment: it only maps pages, it never discards them.
func TestPrefaultKeepsContent(t *testing.T) {
	big := make([]byte, 64<<10+123)
	for i := range big {
		big[i] = byte(i*7 + 1)
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"small", big[:100]},
		{"unaligned", big[17 : 40<<10]},
		{"whole", big},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := bytes.Clone(tc.b)
			prefault(tc.b)
			if !bytes.Equal(tc.b, want) {
				t.Fatal("prefault changed the buffer")
			}
			fresh := make([]byte, len(tc.b))
			prefault(fresh)
			if bytes.ContainsFunc(fresh, func(r rune) bool { return r != 0 }) {
				t.Fatal("a fresh buffer is not zero after prefault")
			}
		})
	}
}
