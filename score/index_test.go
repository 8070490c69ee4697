package score

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
)

func TestIndexCachesAndEvicts(t *testing.T) {
	a := doc("a", memory.TypeProject, "Deploy", "", "", 0)
	b := doc("b", memory.TypeProject, "Deploy notes", "", "", 1)
	ix := NewIndex()
	ix.compactAfter = 0
	ix.coldAfter = 2
	q := NewQuery("deploy", nil)

	ix.Rank(q, []*memory.Document{a, b})
	if got := ix.Len(); got != 2 {
		t.Fatalf("Len after two documents = %d", got)
	}
	pa := ix.slots[ix.entries[a].slot].prep
	ix.Rank(q, []*memory.Document{a, b})
	if ix.slots[ix.entries[a].slot].prep != pa {
		t.Error("an unchanged document was prepared again")
	}

	// A new version of b replaces the old pointer; the old one is evicted.
	b2 := doc("b", memory.TypeProject, "Coffee", "", "", 1)
	_, ranked := ix.Rank(q, []*memory.Document{a, b2})
	if diff := cmp.Diff([]string{"a.md"}, ids(ranked)); diff != "" {
		t.Errorf("ranked after a new version (-want +got):\n%s", diff)
	}
	if got := ix.Len(); got != 2 {
		t.Errorf("Len after replacing a version = %d, want 2", got)
	}
	if _, ok := ix.entries[b]; ok {
		t.Error("the old version is still cached")
	}

	_, ranked = ix.Rank(q, nil)
	if ranked != nil || ix.Len() != 0 {
		t.Errorf("empty call: ranked %v, Len %d", ranked, ix.Len())
	}
	if len(ix.terms) != 0 || len(ix.lists) != 0 {
		t.Errorf("%d terms and %d posting lists survived compaction", len(ix.terms), len(ix.lists))
	}
}

func TestIndexConcurrentUse(t *testing.T) {
	var docs []*memory.Document
	for i := range 40 {
		docs = append(docs, doc(fmt.Sprint(i), memory.Types[i%4], fmt.Sprintf("deploy step%d", i%5), "", "", i%7))
	}
	ix := NewIndex()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 20 {
				sub := docs[(g*7+i)%20:]
				q := NewQuery(fmt.Sprintf("deploy step%d", i%5), nil)
				_, want := RankNaive(q, sub)
				_, got := ix.Rank(q, sub)
				if !cmp.Equal(want, got) {
					t.Errorf("goroutine %d call %d: index and naive differ", g, i)
				}
			}
		})
	}
	wg.Wait()
}
