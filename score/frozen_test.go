package score

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
	"pgregory.net/rapid"
)

// checkRank compares ix.Rank with RankNaive on docs for q.
func checkRank(t *rapid.T, ix *Index, q Query, docs []*memory.Document) {
	wantKept, wantRanked := RankNaive(q, docs)
	gotKept, gotRanked := ix.Rank(q, docs)
	if diff := cmp.Diff(wantKept, gotKept); diff != "" {
		t.Fatalf("kept differs (-naive +index):\n%s", diff)
	}
	if diff := cmp.Diff(wantRanked, gotRanked); diff != "" {
		t.Fatalf("ranked differs for %q (-naive +index):\n%s", q.Tokens(), diff)
	}
}

// docsOf draws a call's documents from pool, with repeats and nils.
func docsOf(t *rapid.T, pool []*memory.Document, label string) []*memory.Document {
	var docs []*memory.Document
	for range rapid.IntRange(0, 2*len(pool)).Draw(t, label+"Size") {
		if rapid.IntRange(0, 20).Draw(t, label+"Nil") == 0 {
			docs = append(docs, nil)
			continue
		}
		docs = append(docs, rapid.SampledFrom(pool).Draw(t, label+"Doc"))
	}
	return docs
}

// TestPropFrozenEqualsNaive: an index that has served random calls is
// frozen over a random list of documents (repeats and nils included) and
// loaded into a fresh index, which then serves calls on changing corpora
// (new versions of frozen documents, removals, compactions that fold the
// frozen postings in) and answers each exactly as the naive reference. A
// second freeze, of the index that holds frozen postings, loads and
// answers the same way; so does an index frozen in place (Freeze) at random
// points, and one laid out again after evictions (Relayout at random
// points). Every encoding passes decodeFrozen's checks and decodes to
// what viewFrozen, which freezeLocked uses unchecked, sees.
func TestPropFrozenEqualsNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pool := rapid.SliceOfN(rapid.OneOf(docGen(), longDocGen()), 1, 12).Draw(t, "pool")
		src := NewIndex()
		src.coldAfter = rapid.IntRange(0, 8).Draw(t, "srcColdAfter")
		for range rapid.IntRange(0, 3).Draw(t, "srcCalls") {
			src.Rank(queryGen().Draw(t, "srcQ"), docsOf(t, pool, "src"))
		}
		for gen := range 2 {
			frozenDocs := docsOf(t, pool, "frozen")
			data := src.EncodeFrozen(frozenDocs)
			if cap(data) != len(data) {
				t.Fatalf("EncodeFrozen holds %d bytes for %d laid out", cap(data), len(data))
			}
			checked, err := decodeFrozen(data, len(frozenDocs))
			if err != nil {
				t.Fatalf("generation %d: an encoding fails decodeFrozen: %v", gen, err)
			}
			if !sameFrozenView(checked, viewFrozen(data)) {
				t.Fatalf("generation %d: viewFrozen differs from decodeFrozen", gen)
			}
			ix := NewIndex()
			ix.compactAfter = rapid.IntRange(0, 8).Draw(t, "compactAfter")
			ix.coldAfter = rapid.IntRange(0, 8).Draw(t, "coldAfter")
			given := slices.Clone(frozenDocs)
			if err := ix.LoadFrozen(frozenDocs, data); err != nil {
				t.Fatalf("generation %d: LoadFrozen: %v", gen, err)
			}
			if !slices.Equal(frozenDocs, given) {
				// The slice may be the catalog's sorted result
				// (memory.SnapshotExtra.LoadSnapshot).
				t.Fatalf("generation %d: LoadFrozen changed the slice of documents it was given", gen)
			}
			if err := ix.LoadFrozen(frozenDocs, data); !errors.Is(err, ErrIndexNotEmpty) {
				t.Fatalf("second LoadFrozen: %v, want ErrIndexNotEmpty", err)
			}
			for range rapid.IntRange(1, 5).Draw(t, "steps") {
				if rapid.Bool().Draw(t, "newVersion") {
					i := rapid.IntRange(0, len(pool)-1).Draw(t, "replaced")
					pool[i] = rapid.OneOf(docGen(), longDocGen()).Draw(t, "version")
				}
				if rapid.Bool().Draw(t, "warm") {
					ix.Warm(rapid.SliceOf(rapid.SampledFrom(pool)).Draw(t, "warmed"))
				}
				if rapid.IntRange(0, 3).Draw(t, "freeze") == 0 {
					ix.Freeze(docsOf(t, pool, "frozenAgain"))
				}
				if rapid.Bool().Draw(t, "relayout") && ix.Relayout() && ix.RelayoutDue() {
					t.Fatal("a re-layout is still due after Relayout")
				}
				checkRank(t, ix, queryGen().Draw(t, "q"), docsOf(t, pool, "call"))
			}
			src = ix
		}
	})
}

// sameFrozenView reports whether a and b view the same bytes the same way.
func sameFrozenView(a, b *frozen) bool {
	same := func(x, y []byte) bool {
		return len(x) == len(y) && cap(x) == cap(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	return a.docs == b.docs && a.terms == b.terms && a.mask == b.mask && a.grams == b.grams &&
		same(a.meta, b.meta) && same(a.table, b.table) && same(a.records, b.records) &&
		same(a.buckets, b.buckets) && same(a.keys, b.keys) && same(a.marks, b.marks) && same(a.lists, b.lists)
}

// frozenSample is a small valid encoding over two documents, for the
// hostile cases and the fuzz seeds.
func frozenSample(tb testing.TB) ([]*memory.Document, []byte) {
	docs := []*memory.Document{
		doc("a", memory.TypeProject, "Deploy grafana", "dashboards", "Run the deploy script; 服务器 部署", 1),
		doc("b", memory.TypeReference, "Tool usage", "api docs", "usage: create_issue schema", 2),
	}
	data := NewIndex().EncodeFrozen(docs)
	if _, err := decodeFrozen(data, len(docs)); err != nil {
		tb.Fatalf("sample does not decode: %v", err)
	}
	if cap(data) != len(data) {
		tb.Fatalf("EncodeFrozen holds %d bytes for %d laid out", cap(data), len(data))
	}
	return docs, data
}

// TestFrozenHostile: damage the header shows is ErrFrozenCorrupt and
// leaves the index empty; damage inside the table or the records loads,
// and reading it refuses what is out of bounds and counts it. None panics.
func TestFrozenHostile(t *testing.T) {
	docs, data := frozenSample(t)
	put := func(off int, v uint32) []byte {
		b := append([]byte(nil), data...)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	h := len(frozenMagic)
	table := frozenHeader + 4*len(docs)
	records := table + 4*int(u32(data[h:], 2))
	refused := []struct {
		name string
		data []byte
		docs int
	}{
		{"empty", nil, 2},
		{"magic", append([]byte("xxxxxxxx"), data[8:]...), 2},
		{"truncated", data[:len(data)-1], 2},
		{"appended", append(append([]byte(nil), data...), 0), 2},
		{"document count", data, 3},
		{"huge term count", put(h+4, 1<<31), 2},
		{"table not a power of two", put(h+8, 3), 2},
		{"table smaller than the terms", put(h+8, 1), 2},
		{"huge record bytes", put(h+12, 1<<32-1), 2},
		{"meta flags without indexed", put(frozenHeader+4, frozenUsage), 2},
	}
	for _, c := range refused {
		ix := NewIndex()
		d := docs
		if c.docs != len(docs) {
			d = append(append([]*memory.Document(nil), docs...), nil)
		}
		if err := ix.LoadFrozen(d, c.data); !errors.Is(err, ErrFrozenCorrupt) {
			t.Errorf("%s: %v, want ErrFrozenCorrupt", c.name, err)
		}
		if ix.Len() != 0 || ix.base != nil {
			t.Errorf("%s: index not left empty", c.name)
		}
	}

	// Every table entry pointing past the records, and every record
	// byte set to 0xff (a uvarint that never ends, or lengths past the
	// data): loaded, refused on reading, counted.
	var wild []byte
	wild = append(wild, data...)
	for i := table; i < records; i += 4 {
		if u32(wild[i:], 0) != 0 {
			binary.LittleEndian.PutUint32(wild[i:], 1<<31)
		}
	}
	ff := append([]byte(nil), data...)
	for i := records; i < len(ff); i++ {
		ff[i] = 0xff
	}
	for name, d := range map[string][]byte{"table entries past the records": wild, "records of 0xff": ff} {
		ix := NewIndex()
		if err := ix.LoadFrozen(docs, d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ix.Rank(NewQuery("deploy grafana usage 部署", nil), docs)
		ix.compactAfter = 0
		ix.Rank(NewQuery("deploy", nil), docs[:1]) // evicts b, compacts, folds the base
		if ix.FrozenDamage() == 0 {
			t.Errorf("%s: no damage counted", name)
		}
	}
}

// FuzzFrozen: any data either loads or is ErrFrozenCorrupt, and an index
// that loaded it ranks without panicking, and encodes again (a snapshot
// writer's EncodeFrozen over what it loaded) to data that loads.
func FuzzFrozen(f *testing.F) {
	docs, data := frozenSample(f)
	f.Add(data)
	f.Add(data[:frozenHeader])
	f.Add(NewIndex().EncodeFrozen(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix := NewIndex()
		if err := ix.LoadFrozen(docs, data); err != nil {
			if !errors.Is(err, ErrFrozenCorrupt) {
				t.Fatalf("error %v is not ErrFrozenCorrupt", err)
			}
			return
		}
		ix.Rank(NewQuery("deploy grafana usage create_issue 服务器 部署", []string{"create_issue"}), docs)
		ix.Rank(NewQuery("schema", nil), docs[:1])
		if _, err := decodeFrozen(ix.EncodeFrozen(docs), len(docs)); err != nil {
			t.Fatalf("an encoding of loaded data fails decodeFrozen: %v", err)
		}
	})
}

// TestFreezeKeepsWhatItHolds: freezing part of what the index holds keeps
// the rest indexed (a warm-up that freezes a tree's first documents must
// not make the others be tokenised again), and the answers stay the
// naive reference's.
func TestFreezeKeepsWhatItHolds(t *testing.T) {
	docs, _ := frozenSample(t)
	extra := doc("c", memory.TypeUser, "Deploy habits", "", "服务器", 3)
	all := append(append([]*memory.Document(nil), docs...), extra)
	ix := NewIndex()
	ix.Warm(all)
	ix.Rank(NewQuery("deploy", nil), all) // a live map to lay out
	if !ix.Freeze(docs[:1]) {
		t.Fatal("Freeze laid nothing out over a live index")
	}
	if got := ix.Len(); got != len(all) {
		t.Errorf("index holds %d documents after freezing one, want %d", got, len(all))
	}
	if ix.Freeze(all) {
		t.Error("Freeze laid out again an index already all frozen")
	}
	checkFrozenAnswers(t, ix, all)
}

// refPostings decodes a term's postings as the layout's comment in
// frozen.go describes them, written apart from frozen.posting on purpose:
// the hits in order, and whether the postings stop at damage.
func refPostings(p []byte, docs int) (hits []hit, damaged bool) {
	prev := -1
	for len(p) > 0 {
		v, n := binary.Uvarint(p)
		if n <= 0 {
			return hits, true
		}
		gap := v >> 1
		if gap >= uint64(docs) || uint64(prev+1)+gap >= uint64(docs) {
			return hits, true
		}
		m := fieldBody
		if v&1 == 1 {
			if n >= len(p) || p[n] == 0 {
				return hits, true
			}
			m = field(p[n])
			n++
		}
		prev += 1 + int(gap)
		hits = append(hits, hit{int32(prev), m})
		p = p[n:]
	}
	return hits, false
}

// oneTermFrozen lays out by hand a frozen index of docs documents holding
// one term, key (not a gram), whose postings are the bytes p as given,
// valid or not.
func oneTermFrozen(docs int, key string, p []byte) []byte {
	b := []byte(frozenMagic)
	var rec []byte
	rec = binary.AppendUvarint(rec, uint64(len(key)))
	rec = append(rec, key...)
	rec = binary.AppendUvarint(rec, uint64(len(p)))
	rec = append(rec, p...)
	for _, v := range [6]uint32{uint32(docs), 1, 2, uint32(len(rec)), 0, 0} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for range docs {
		b = binary.LittleEndian.AppendUint32(b, frozenIndexed|1)
	}
	var table [2]uint32
	table[frozenHash(key)&1] = 1
	for _, v := range table {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return append(b, rec...)
}

// TestPropPostingsDecodeAsWritten is the differential test of the two
// loops that read frozen postings, frozen.postings (freezing again,
// compaction) and the one inlined in weighSlots' gather (every warm
// query), against refPostings: over valid postings (every gap length and
// mask, as appendPostings writes them) and damaged ones (truncated, a
// byte changed, bytes appended, random bytes), both give the reference's
// hits and count damage exactly when it stops at damage.
func TestPropPostingsDecodeAsWritten(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 400).Draw(t, "docs")
		var p []byte
		if rapid.IntRange(0, 4).Draw(t, "random") == 0 {
			p = rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")
		} else {
			var want []frozenPosting
			for d := range n {
				if rapid.IntRange(0, 3).Draw(t, "in") == 0 {
					m := fieldBody
					if rapid.Bool().Draw(t, "otherMask") {
						m = field(rapid.IntRange(1, 255).Draw(t, "mask"))
					}
					want = append(want, frozenPosting{int32(d), m})
				}
			}
			p = appendPostings(nil, want)
			var wantHits []hit
			for _, w := range want {
				wantHits = append(wantHits, hit{w.doc, w.mask})
			}
			if got, bad := refPostings(p, n); bad || !cmp.Equal(got, wantHits, cmp.AllowUnexported(hit{})) {
				t.Fatalf("valid postings decode to %v (damaged %v), want %v", got, bad, wantHits)
			}
			switch rapid.IntRange(0, 3).Draw(t, "damage") {
			case 1:
				if len(p) > 0 {
					p = p[:rapid.IntRange(0, len(p)-1).Draw(t, "cut")]
				}
			case 2:
				if len(p) > 0 {
					p[rapid.IntRange(0, len(p)-1).Draw(t, "at")] = rapid.Byte().Draw(t, "to")
				}
			case 3:
				p = append(p, rapid.SliceOfN(rapid.Byte(), 1, 4).Draw(t, "tail")...)
			}
		}
		want, bad := refPostings(p, n)
		wantDamage := int64(0)
		if bad {
			wantDamage = 1
		}

		f, err := decodeFrozen(oneTermFrozen(n, "deploy", p), n)
		if err != nil {
			t.Fatal(err)
		}
		var got []hit
		f.postings(f.find("deploy"), func(doc int32, m field) { got = append(got, hit{doc, m}) })
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(hit{})); diff != "" {
			t.Fatalf("frozen.postings (-reference +got):\n%s", diff)
		}
		if f.damageCount() != wantDamage {
			t.Fatalf("frozen.postings counted %d damage, want %d", f.damageCount(), wantDamage)
		}

		docs := make([]*memory.Document, n)
		for i := range docs {
			docs[i] = doc(fmt.Sprint(i), memory.TypeProject, "t", "", "b", 1)
		}
		ix := NewIndex()
		if err := ix.LoadFrozen(docs, oneTermFrozen(n, "deploy", p)); err != nil {
			t.Fatal(err)
		}
		q := NewQuery("deploy", nil)
		ix.mu.Lock()
		ix.sync(docs, false)
		ix.weighSlots(&q)
		got = append([]hit(nil), ix.hits[ix.starts[0]:ix.starts[1]]...)
		damage := ix.base.damageCount()
		ix.mu.Unlock()
		if len(got) == 0 {
			got = nil
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(hit{})); diff != "" {
			t.Fatalf("gather (-reference +got):\n%s", diff)
		}
		if damage != wantDamage {
			t.Fatalf("gather counted %d damage, want %d", damage, wantDamage)
		}
	})
}

// TestFrozenHostileCountsSizeNothing: the posting counts of the meta
// words are the data's word, unchecked at load. A re-layout (Freeze, or
// Relayout after evictions) must not size its buffers by a hostile
// count of 2³⁰ − 1 per document (16 GB for two documents), only by what
// the data and the live lists can hold.
func TestFrozenHostileCountsSizeNothing(t *testing.T) {
	docs, data := frozenSample(t)
	b := append([]byte(nil), data...)
	for i := range docs {
		binary.LittleEndian.PutUint32(b[frozenHeader+4*i:], frozenIndexed|frozenCount)
	}
	ix := NewIndex()
	if err := ix.LoadFrozen(docs, b); err != nil {
		t.Fatal(err)
	}
	// A third document in the live map makes Freeze lay everything out.
	all := append(append([]*memory.Document(nil), docs...), doc("c", memory.TypeUser, "Deploy habits", "", "服务器", 3))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if !ix.Freeze(all) {
		t.Fatal("Freeze laid nothing out")
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("Freeze of three documents allocated %d bytes", got)
	}
	checkFrozenAnswers(t, ix, all)
}

// checkFrozenAnswers compares ix's answers over docs with RankNaive's for
// a few queries.
func checkFrozenAnswers(t *testing.T, ix *Index, docs []*memory.Document) {
	t.Helper()
	for _, q := range []string{"deploy", "服务器 usage", "部署 schema", "habits schema"} {
		wantKept, wantRanked := RankNaive(NewQuery(q, nil), docs)
		gotKept, gotRanked := ix.Rank(NewQuery(q, nil), docs)
		if diff := cmp.Diff(wantKept, gotKept); diff != "" {
			t.Errorf("%q: kept (-naive +index):\n%s", q, diff)
		}
		if diff := cmp.Diff(wantRanked, gotRanked); diff != "" {
			t.Errorf("%q: ranked (-naive +index):\n%s", q, diff)
		}
	}
}

// TestRelayoutAfterTheQuery: the Rank that evicts most of a frozen index
// answers without laying it out again (its base stays) and leaves the
// re-layout due; so does every later Rank (decision 0906: no query pays
// for a re-layout, whoever forgot to call Relayout). Relayout then does it
// once. The answers are the naive reference's throughout.
func TestRelayoutAfterTheQuery(t *testing.T) {
	docs, _ := frozenSample(t)
	ix := NewIndex()
	ix.compactAfter = 0
	ix.Freeze(docs)
	base := ix.base
	q := NewQuery("usage schema", nil)
	_, got := ix.Rank(q, docs[1:]) // evicts a: more stale than live
	if _, want := RankNaive(q, docs[1:]); !cmp.Equal(got, want) {
		t.Errorf("evicting Rank: %v, want %v", got, want)
	}
	if ix.base != base {
		t.Fatal("the evicting Rank laid the index out itself")
	}
	if !ix.RelayoutDue() {
		t.Fatal("no re-layout due after evicting most postings")
	}
	checkFrozenAnswers(t, ix, docs[1:])
	if ix.base != base || !ix.RelayoutDue() {
		t.Fatalf("a later Rank laid the index out: base replaced %v, still due %v", ix.base != base, ix.RelayoutDue())
	}
	if !ix.Relayout() {
		t.Fatal("Relayout laid nothing out")
	}
	checkFrozenAnswers(t, ix, docs[1:])
	if ix.base == base || ix.RelayoutDue() {
		t.Errorf("base replaced %v, still due %v", ix.base != base, ix.RelayoutDue())
	}
	if ix.Relayout() {
		t.Error("a second Relayout laid out again")
	}
}
