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
	ea := ix.entries[a]
	ix.Rank(q, []*memory.Document{a, b})
	if ix.entries[a] != ea {
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

func TestIndexColdWarm(t *testing.T) {
	docs := []*memory.Document{
		doc("a", memory.TypeProject, "Deploy", "", "", 0),
		doc("b", memory.TypeProject, "Deploy notes", "", "", 1),
		doc("c", memory.TypeUser, "Coffee", "", "", 2),
	}
	q := NewQuery("deploy", nil)
	_, want := RankNaive(q, docs)

	ix := NewIndex()
	ix.coldAfter = 1
	if _, got := ix.Rank(q, docs); !cmp.Equal(want, got) {
		t.Errorf("cold Rank differs from RankNaive")
	}
	if n := ix.Len(); n != 0 {
		t.Errorf("a cold Rank of 3 new documents (coldAfter 1) indexed %d", n)
	}
	ix.Warm(docs[:2])
	if n := ix.Len(); n != 2 {
		t.Errorf("Warm of 2 documents: Len %d", n)
	}
	if _, got := ix.Rank(q, docs); !cmp.Equal(want, got) || ix.Len() != 3 {
		t.Errorf("one new document after Warm: Len %d, equal %v", ix.Len(), cmp.Equal(want, got))
	}

	warmup := NewIndex()
	warmup.coldAfter = 1
	warmup.Rank(Query{}, docs)
	if n := warmup.Len(); n != 3 {
		t.Errorf("a Rank with the empty query indexed %d of 3 documents", n)
	}
}
