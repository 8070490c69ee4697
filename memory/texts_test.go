package memory

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTextsKeep: every string texts hands out equals its bytes at the time
// of the call and stays so while the source buffer is overwritten and
// later strings fill the same block and the next ones, whatever the sizes
// (empty, small, exactly filling a block's rest, over the block limit),
// and a nil *texts copies too.
func TestTextsKeep(t *testing.T) {
	sizes := []int{0, 1, 100, textChunk/4 - 1, textChunk / 4, textChunk/4 + 1, 3000, 7, textChunk / 8, textChunk}
	for _, tx := range []*texts{nil, new(texts)} {
		src := make([]byte, textChunk+1)
		var got, want []string
		for round := range 40 {
			n := sizes[round%len(sizes)]
			for i := range n {
				src[i] = byte('a' + (i+round)%26)
			}
			want = append(want, string(src[:n]))
			got = append(got, tx.keep(src[:n]))
			copy(src, bytes.Repeat([]byte{'#'}, len(src))) // the reader reuses its buffer
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("texts (nil=%v) changed kept strings (-want +got):\n%s", tx == nil, diff)
		}
		for i, s := range got {
			if strings.Contains(s, "#") {
				t.Errorf("string %d shares the source buffer", i)
			}
		}
	}
}

// TestPrefaultSliceKeepsContent: prefaultSlice leaves a slice of any
// element type as it was, pointers included.
func TestPrefaultSliceKeepsContent(t *testing.T) {
	docs := make([]Document, 300)
	for i := range docs {
		docs[i] = Document{Title: strings.Repeat("t", i%7), Size: int64(i)}
	}
	want := make([]Document, len(docs))
	copy(want, docs)
	prefaultSlice(docs)
	prefaultSlice([]entry(nil))
	if diff := cmp.Diff(want, docs); diff != "" {
		t.Errorf("prefaultSlice changed the slice (-want +got):\n%s", diff)
	}
}
