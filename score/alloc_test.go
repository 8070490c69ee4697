package score

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/memory"
)

// TestRankAllocsIndependentOfBodyLength: ranking prepared documents costs
// the same allocations whether bodies are short or far past the window.
func TestRankAllocsIndependentOfBodyLength(t *testing.T) {
	q := NewQuery("deploy checklist", nil)
	allocs := func(bodyWords int) float64 {
		docs := make([]*memory.Document, 50)
		for i := range docs {
			docs[i] = doc(fmt.Sprint(i), memory.TypeProject, "Deploy checklist", "",
				strings.Repeat("migrate database ", bodyWords), i)
		}
		ix := NewIndex()
		ix.Rank(q, docs) // prepare once
		return testing.AllocsPerRun(20, func() { ix.Rank(q, docs) })
	}
	short, long := allocs(5), allocs(50000)
	if short != long {
		t.Errorf("Rank allocations: %v with short bodies, %v with long ones", short, long)
	}
	if short > 2 {
		t.Errorf("Rank allocates %v times per call, want at most 2 (the two results)", short)
	}
}

// TestPrepareAllocsBoundedByWindow: text past the body window is never
// tokenised, so indexing or directly scoring a huge body costs what its
// window does.
func TestPrepareAllocsBoundedByWindow(t *testing.T) {
	unit := "alpha beta gamma delta "
	window := strings.Repeat(unit, memory.BodyWindow/len(unit)+1)
	q := NewQuery("gamma", nil)
	allocs := func(body string) float64 {
		d := doc("a", memory.TypeProject, "t", "d", body, 0)
		ix := NewIndex()
		ix.Warm([]*memory.Document{doc("b", memory.TypeProject, "alpha beta gamma delta", "", "", 0)})
		var masks [MaxQueryTokens]field
		direct := testing.AllocsPerRun(10, func() { scoreDirect(&q, d, &ix.keyBuf, &masks) })
		indexed := testing.AllocsPerRun(10, func() {
			ix.add(d)
			delete(ix.entries, d)
		})
		return direct*1000 + indexed
	}
	atWindow, huge := allocs(window), allocs(window+strings.Repeat(unit, 20000))
	if atWindow != huge {
		t.Errorf("prepare allocations: %v at the window, %v for a huge body", atWindow, huge)
	}
}

// TestKeepAllAllocatesOnce: KeepAll sizes its answer once, whatever the
// number of documents (the engine without a warm-up answers an empty
// query with it, decision 0812), and allocates nothing when it keeps
// nothing.
func TestKeepAllAllocatesOnce(t *testing.T) {
	docs := make([]*memory.Document, 1000)
	for i := range docs {
		if i%7 != 3 {
			docs[i] = doc(fmt.Sprint(i), memory.TypeProject, "T", "", "", i)
		}
	}
	if got := testing.AllocsPerRun(20, func() { KeepAll(docs) }); got != 1 {
		t.Errorf("KeepAll of %d documents allocates %v times, want 1", len(docs), got)
	}
	nils := make([]*memory.Document, 10)
	if got := testing.AllocsPerRun(20, func() { KeepAll(nils) }); got != 0 {
		t.Errorf("KeepAll of nil documents allocates %v times, want 0", got)
	}
}
