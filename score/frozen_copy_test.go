package score

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/internal/testenv"
	"github.com/memrecall/memrecall/memory"
	"pgregory.net/rapid"
)

// frozenContent is what an encoding of n documents says: each document's
// meta word, and each term's postings (document, mask) by key. Two
// encodings with the same content load into indexes that answer alike,
// whatever order their terms were laid out in.
func frozenContent(tb fataler, data []byte, n int) (meta []uint32, terms map[string][][2]int32) {
	tb.Helper()
	f, err := decodeFrozen(data, n)
	if err != nil {
		tb.Fatalf("an encoding fails decodeFrozen: %v", err)
	}
	for i := range n {
		meta = append(meta, u32(f.meta, i))
	}
	terms = map[string][][2]int32{}
	f.each(func(k []byte, _ uint32, p []byte) {
		var ps [][2]int32
		f.postings(p, func(doc int32, m field) { ps = append(ps, [2]int32{doc, int32(m)}) })
		terms[string(k)] = ps
	})
	if d := f.damageCount(); d != 0 {
		tb.Fatalf("an encoding reads with %d damaged parts", d)
	}
	return meta, terms
}

// sameAsQuiet checks that data, an encoding of docs by an index that was
// changed while it copied, says what an index that held docs and nothing
// else, and was not touched, encodes for them.
func sameAsQuiet(tb fataler, data []byte, docs []*memory.Document) {
	tb.Helper()
	wantMeta, wantTerms := frozenContent(tb, NewIndex().EncodeFrozen(docs), len(docs))
	gotMeta, gotTerms := frozenContent(tb, data, len(docs))
	if diff := cmp.Diff(wantMeta, gotMeta); diff != "" {
		tb.Fatalf("meta words differ (-quiet +changed):\n%s", diff)
	}
	if diff := cmp.Diff(wantTerms, gotTerms); diff != "" {
		tb.Fatalf("postings differ (-quiet +changed):\n%s", diff)
	}
}

// TestPropEncodeFrozenBesideChanges: EncodeFrozen copies the index in
// short holds of its lock (decision 0836). Between any two of them the
// index is changed, as other callers change it: documents indexed (Warm),
// documents of the encoding evicted by a Rank over other documents, new
// versions ranked, the index frozen or laid out again. Whatever happens
// between the holds, the encoding says exactly what an untouched index
// holding the same documents encodes: no document's postings come from
// two states, none is missing, and the encoding's documents are all
// indexed (a document evicted meanwhile is indexed again, as a copy in
// one hold indexes it). One hold per item (encodeChunk 1 to 3) puts a
// change between any two steps. The encoding then loads and answers as
// the naive reference. In half the cases the index is frozen instead
// (Freeze copies the same way, and puts its base in place only if
// nothing changed since), and must then answer as the reference.
func TestPropEncodeFrozenBesideChanges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pool := rapid.SliceOfN(rapid.OneOf(docGen(), longDocGen()), 1, 10).Draw(t, "pool")
		ix := NewIndex()
		ix.compactAfter = rapid.IntRange(0, 8).Draw(t, "compactAfter")
		ix.coldAfter = rapid.IntRange(0, 8).Draw(t, "coldAfter")
		ix.encodeChunk = rapid.IntRange(1, 3).Draw(t, "encodeChunk")
		for range rapid.IntRange(0, 2).Draw(t, "before") {
			ix.Rank(queryGen().Draw(t, "qBefore"), docsOf(t, pool, "before"))
		}
		if rapid.Bool().Draw(t, "frozenBefore") {
			ix.Freeze(docsOf(t, pool, "frozenBefore"))
		}
		docs := docsOf(t, pool, "encoded")
		others := rapid.SliceOfN(rapid.OneOf(docGen(), longDocGen()), 0, 4).Draw(t, "others")
		all := append(append([]*memory.Document(nil), pool...), others...)
		changes := rapid.IntRange(0, 12).Draw(t, "changes")
		st := &copyStats{between: func() {
			if changes == 0 {
				return
			}
			changes--
			switch rapid.IntRange(0, 5).Draw(t, "change") {
			case 0: // nothing
			case 1:
				ix.Warm(rapid.SliceOf(rapid.SampledFrom(all)).Draw(t, "warmed"))
			case 2:
				ix.Rank(queryGen().Draw(t, "q"), docsOf(t, all, "ranked"))
			case 3:
				ix.Freeze(docsOf(t, all, "frozen"))
			case 4:
				ix.Relayout()
			case 5: // a new version of a document, ranked: the old one goes
				changed := append([]*memory.Document(nil), all...)
				changed[rapid.IntRange(0, len(all)-1).Draw(t, "replaced")] = docGen().Draw(t, "version")
				ix.Rank(queryGen().Draw(t, "qVersion"), changed)
			}
		}}
		if rapid.Bool().Draw(t, "freeze") {
			// Freeze copies the same way and puts its base in place
			// only if nothing changed since: the index must answer as
			// the naive reference whatever happened meanwhile.
			ix.freeze(docs, st)
			checkRank(t, ix, queryGen().Draw(t, "qFrozen"), docsOf(t, all, "afterFreeze"))
			return
		}
		data := ix.encodeCopied(docs, st)
		if cap(data) != len(data) {
			t.Fatalf("EncodeFrozen holds %d bytes for %d laid out", cap(data), len(data))
		}
		sameAsQuiet(t, data, docs)
		loaded := NewIndex()
		if err := loaded.LoadFrozen(docs, data); err != nil {
			t.Fatalf("LoadFrozen: %v", err)
		}
		checkRank(t, loaded, queryGen().Draw(t, "qLoaded"), docsOf(t, pool, "call"))
		checkRank(t, ix, queryGen().Draw(t, "qAfter"), docsOf(t, all, "after"))
	})
}

// TestEncodeFrozenStartsAgain: a change between two holds starts the copy
// again; changes between every two make it copy in one hold after
// maxCopyTries; either way the encoding is an untouched index's.
func TestEncodeFrozenStartsAgain(t *testing.T) {
	var docs, others []*memory.Document
	for i := range 12 {
		docs = append(docs, doc(fmt.Sprintf("d%d", i), memory.TypeProject, fmt.Sprintf("note %d deploy", i), "about grafana", fmt.Sprintf("body %d of 服务器 部署 text", i), i))
		others = append(others, doc(fmt.Sprintf("o%d", i), memory.TypeProject, fmt.Sprintf("other %d", i), "unrelated", "other body 数据库", i))
	}
	q := NewQuery("deploy grafana", nil)
	for _, tc := range []struct {
		name                 string
		changes              int // between-hold calls that change the index
		wantRestarts, locked int64
	}{
		{name: "still", changes: 0},
		{name: "evicted once", changes: 1, wantRestarts: 1},
		{name: "changed every time", changes: 1 << 20, wantRestarts: maxCopyTries, locked: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := NewIndex()
			ix.encodeChunk = 2
			ix.Warm(docs)
			changes := tc.changes
			st := &copyStats{between: func() {
				if changes > 0 {
					changes--
					// A query over other documents evicts the encoding's.
					ix.Rank(q, others)
				}
			}}
			data := ix.encodeCopied(docs, st)
			sameAsQuiet(t, data, docs)
			if ix.copyRestarts != tc.wantRestarts || ix.copyLocked != tc.locked {
				t.Fatalf("%d restarts, %d copies in one hold; want %d, %d", ix.copyRestarts, ix.copyLocked, tc.wantRestarts, tc.locked)
			}
			if tc.changes == 0 && st.holds < 10 {
				t.Fatalf("%d holds for %d documents two at a time", st.holds, len(docs))
			}
		})
	}
}

// TestEncodeFrozenIndexesWhatItLacks copies documents half of which the
// index does not hold: the copy finds them missing, starts again after
// indexing them, and the encoding is an untouched index's of all of them.
// A copy that kept going past a missing document would encode it as
// unindexed.
func TestEncodeFrozenIndexesWhatItLacks(t *testing.T) {
	var docs []*memory.Document
	for i := range 12 {
		docs = append(docs, doc(fmt.Sprintf("d%d", i), memory.TypeProject, fmt.Sprintf("note %d deploy", i), "about grafana", fmt.Sprintf("body %d of 服务器 部署 text", i), i))
	}
	ix := NewIndex()
	ix.encodeChunk = 2
	ix.Warm(docs[:6])
	// copyFrozen itself, not encodeCopied, which indexes docs first:
	// documents evicted after that and before the copy's first hold are
	// missing the same way, with no change between two holds to see.
	c, _ := ix.copyFrozen(docs, &copyStats{})
	sameAsQuiet(t, encodeFrozen(c.collect()), docs)
	if ix.copyRestarts != 1 || ix.copyLocked != 0 {
		t.Fatalf("%d restarts, %d copies in one hold; want 1, 0", ix.copyRestarts, ix.copyLocked)
	}
}

// TestEncodeFrozenBesideConcurrentCalls runs encodings while other
// goroutines rank, warm, freeze and re-lay the same index out, for the
// race detector and for the encoding's content: every encoding must be
// an untouched index's. Nothing is timed.
func TestEncodeFrozenBesideConcurrentCalls(t *testing.T) {
	var docs, others []*memory.Document
	for i := range 40 {
		docs = append(docs, doc(fmt.Sprintf("d%d", i), memory.TypeProject, fmt.Sprintf("note %d deploy", i), "about grafana", fmt.Sprintf("body %d of 服务器 部署 text %d", i, i*i), i))
		others = append(others, doc(fmt.Sprintf("o%d", i), memory.TypeUser, fmt.Sprintf("other %d", i), "unrelated", fmt.Sprintf("other body 数据库 %d", i), i))
	}
	ix := NewIndex()
	ix.encodeChunk = 3
	ix.compactAfter = 4
	ix.Warm(docs)
	q := NewQuery("deploy 部署", nil)
	loops := testenv.NewLoops()
	loops.Go(func(i int) { ix.Rank(q, docs[:len(docs)-i%7]) })
	loops.Go(func(i int) {
		switch i % 4 {
		case 0:
			ix.Rank(q, append(others[:i%len(others)], docs...))
		case 1:
			ix.Warm(others)
		case 2:
			ix.Freeze(docs[i%len(docs):])
		case 3:
			ix.Relayout()
		}
	})
	for range 30 {
		sameAsQuiet(t, ix.EncodeFrozen(docs), docs)
	}
	loops.Stop()
	t.Logf("%d copies started again, %d made in one hold", ix.copyRestarts, ix.copyLocked)
}

// TestFreezeKeepsWhatCameMeanwhile: Freeze lays its base out without the
// lock and puts it in place only if the index did not change since its
// copy. A document indexed just before that last hold must still be held
// after it, and one evicted must not come back.
func TestFreezeKeepsWhatCameMeanwhile(t *testing.T) {
	var docs []*memory.Document
	for i := range 12 {
		docs = append(docs, doc(fmt.Sprintf("d%d", i), memory.TypeProject, fmt.Sprintf("note %d deploy", i), "about grafana", fmt.Sprintf("body %d of 服务器 部署 text", i), i))
	}
	late := doc("late", memory.TypeProject, "late note", "came meanwhile", "a body 数据库", 99)
	build := func() *Index {
		ix := NewIndex()
		ix.encodeChunk = 2
		ix.Warm(docs)
		return ix
	}
	// The number of between-hold calls of a freeze nothing disturbs; the
	// last comes before the hold that puts the base in place.
	calls := 0
	if !build().freeze(docs, &copyStats{between: func() { calls++ }}) {
		t.Fatal("nothing laid out")
	}
	for _, tc := range []struct {
		name   string
		change func(ix *Index)
		check  func(ix *Index) string
	}{
		{"indexed", func(ix *Index) { ix.Warm([]*memory.Document{late}) }, func(ix *Index) string {
			if _, ok := ix.entries[late]; !ok {
				return "a document indexed meanwhile is gone"
			}
			return ""
		}},
		{"evicted", func(ix *Index) { ix.Rank(NewQuery("deploy", nil), docs[1:]) }, func(ix *Index) string {
			if _, ok := ix.entries[docs[0]]; ok {
				return "a document evicted meanwhile is back"
			}
			return ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := build()
			n := 0
			ix.freeze(docs[1:], &copyStats{between: func() {
				if n++; n == calls {
					tc.change(ix)
				}
			}})
			ix.mu.Lock()
			msg := tc.check(ix)
			ix.mu.Unlock()
			if msg != "" {
				t.Fatal(msg)
			}
		})
	}
}
