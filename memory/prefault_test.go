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

// newReadBuffer gives exactly n zero bytes whatever n, below and above the
// size it aligns to huge pages, and its capacity ends with them, so
// nothing appended to it can reach the padding of its allocation.
func TestNewReadBufferIsZeroAndExact(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 64 << 10, 1<<20 - 1, 1 << 20, 1<<20 + 1, 2 << 20, 5<<20 + 17} {
		b := newReadBuffer(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("n=%d: len %d cap %d", n, len(b), cap(b))
		}
		if bytes.ContainsFunc(b, func(r rune) bool { return r != 0 }) {
			t.Fatalf("n=%d: not zero", n)
		}
		for i := range b {
			b[i] = byte(i)
		}
		for i := range b {
			if b[i] != byte(i) {
				t.Fatalf("n=%d: byte %d lost", n, i)
			}
		}
	}
}
