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

// newReadBuffer gives exactly n bytes whatever n, below and above the size
// it aligns to huge pages, and its capacity ends with them, so nothing
// appended to it can reach the padding of its allocation. Its content is
// undefined (the file read overwrites it): what it must be is writable
// memory of its own, which two live buffers filled differently show.
func TestNewReadBufferIsExactAndOwn(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 64 << 10, 1<<20 - 1, 1 << 20, 1<<20 + 1, 2 << 20, 5<<20 + 17} {
		a, b := newReadBuffer(n), newReadBuffer(n)
		for _, buf := range [][]byte{a, b} {
			if len(buf) != n || cap(buf) != n {
				t.Fatalf("n=%d: len %d cap %d", n, len(buf), cap(buf))
			}
		}
		for i := range a {
			a[i] = byte(i)
			b[i] = ^byte(i)
		}
		for i := range a {
			if a[i] != byte(i) || b[i] != ^byte(i) {
				t.Fatalf("n=%d: byte %d lost or shared", n, i)
			}
		}
	}
}
