package score

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/memrecall/memrecall/memory"
)

// Index ranks documents through an inverted index from query token to the
// documents and fields it matches, so a query costs the length of its
// tokens' posting lists instead of a scan of every body.
//
// Prepared data is cached per *memory.Document: the catalog hands out the
// same pointer for an unchanged file, so a document is tokenised once per
// version. Documents absent from the latest Rank call are evicted.
//
// Indexing a document costs more than scoring it once, so a Rank call that
// meets many documents the index has not seen (a cold start) scores those
// directly, split over the cores, and leaves them unindexed; a call with a
// few new documents (a changed file) indexes them, and so does a call with
// an empty query.
// Warm indexes documents ahead of time — an engine calls it in the
// background after a scan so that queries find the index warm. The results
// are the same either way.
//
// An Index is safe for concurrent use; Rank calls are serialised, and Warm
// and EncodeFrozen take the lock in short chunks. It is meant to serve one catalog: callers
// that alternate between different document sets make each other's
// documents look removed and pay to index them again.
type Index struct {
	mu sync.Mutex
	// entries maps an indexed document to its slot.
	entries map[*memory.Document]*entry
	// slots holds indexed documents; a freed slot's generation is bumped so
	// that postings still naming it are recognised as stale.
	slots []slot
	free  []int32
	// terms maps a query token to its posting list in lists.
	// Invariant: a posting is live iff its gen equals slots[slot].gen.
	terms map[string]int32
	lists [][]posting
	// base holds frozen postings (LoadFrozen, Freeze), looked up besides
	// terms. Its document i is slot i, of generation 0: a base posting is
	// live iff slots[doc].gen is still 0. Once evictions leave more stale
	// postings than live ones, Relayout lays every document out in a new
	// base.
	base *frozen
	// damage counts frozen data refused by bases since replaced;
	// refreeze says Relayout is due.
	damage   int64
	refreeze bool
	// changes counts the changes to what an encoding copies out (entries,
	// slots, terms, lists, base): every path that changes them bumps it,
	// so that EncodeFrozen and Freeze, which copy them in several holds
	// of the lock, know whether the index stood still between their holds
	// (decision 0836).
	changes uint64
	// encodeChunk is how many terms (an eighth as many documents, four
	// times as many slots or list headers) EncodeFrozen copies per hold
	// of the lock;
	// copyRestarts and copyLocked count its copies started again because
	// the index changed, and those it then made in one hold. Tests lower
	// the first to interleave every hold.
	encodeChunk  int
	copyRestarts int64
	copyLocked   int64
	// stale and total count postings, to decide when to compact.
	stale, total int
	// compactAfter is the least number of stale postings worth a
	// compaction; coldAfter the most new documents one Rank call indexes.
	// Tests lower both to exercise every path.
	compactAfter int
	coldAfter    int
	// parallelAfter is the least number of directly scored documents
	// worth splitting over several goroutines; scorers bounds how many.
	// Tests lower the first to exercise the split on small corpora.
	parallelAfter int
	scorers       int
	block         int
	epoch         uint64

	// scratch reused across calls.
	slotOf []int32
	fresh  []int
	keys   []rankKey
	keyBuf []string
	// direct holds, per input position of a directly scored document,
	// its row of token masks (len(q.tokens) per position); noise says the
	// noise filter removes it.
	direct []field
	noise  []bool
	// Per slot: the score and evidence of the call, how many input
	// positions hold the slot's document, and (while one token's postings
	// are gathered) 1 + the index of its hit.
	scores   []int32
	evidence []int64
	named    []bool
	// fields is the union of the slot's token masks: where the document
	// matched at all (see farOnly).
	fields []field
	mult   []int32
	at     []int32
	// hits holds every (slot, mask) a token's postings give, token after
	// token; starts[t] is where token t's begin.
	hits   []hit
	starts []int
	looks  []keyLook
	df     []int
	idfBuf []int32
	evBuf  []int64
}

// keyLook is one key of a query token, looked up: its live posting list
// (lists[id], when live) and its frozen postings (base).
type keyLook struct {
	tok  int32
	fold bool // an alternative or transliterated key: masks are folded
	live bool
	id   int32
	base []byte
}

// hit is one indexed document's match of one query token.
type hit struct {
	slot int32
	mask field
}

type entry struct {
	slot int32
	seen uint64
}

type slot struct {
	prep *prepared // nil unless the document is usage-only
	gen  uint32
	// postings counts the postings the document version added, so that
	// evicting it can account for them as stale.
	postings int32
}

type posting struct {
	slot int32
	gen  uint32
	mask field
}

// Slot markers in Index.slotOf for documents that have no slot.
const (
	slotNil    = -1 // a nil document: skipped
	slotDirect = -2 // not indexed: scored directly in this call
)

// Defaults of the Index tuning knobs.
const (
	defaultCompactAfter = 1024
	// defaultColdAfter bounds what one Rank call spends indexing; past it,
	// new documents are scored directly (a few µs each instead of tens).
	defaultColdAfter = 64
	// warmChunk is how many documents Warm indexes per hold of the lock, so
	// a concurrent Rank waits a few milliseconds at most.
	warmChunk = 64
	// defaultParallelAfter: below a few hundred documents (a millisecond
	// of scoring) a second goroutine costs more in hand-off than it saves.
	defaultParallelAfter = 256
	// defaultBlock is how many documents a scorer takes at a time: small
	// enough to balance two goroutines, large enough that the shared
	// counter is touched rarely.
	defaultBlock = 32
	// defaultEncodeChunk: a hold of 4,096 terms of a map walk, 512
	// document look-ups or 16,384 slots or list headers; the longest
	// took 0.03–1.32 ms of CPU here (decision 0836;
	// BenchmarkEncodeFrozenLockHold's *-max-hold-cpu-ms).
	defaultEncodeChunk = 1 << 12
)

// rankKey is a match reduced to what orders it.
type rankKey struct {
	score int32
	pos   int32
	sec   int64 // modification time, seconds since the Unix epoch
	nsec  int32
	far   bool // Match.FarOnly
}

// compareKeys orders best first, as compareMatches does: higher score, then
// newer modification time, then earlier input position.
func compareKeys(a, b rankKey) int {
	switch {
	case a.score != b.score:
		return int(b.score) - int(a.score)
	case a.sec != b.sec:
		if a.sec > b.sec {
			return -1
		}
		return 1
	case a.nsec != b.nsec:
		return int(b.nsec) - int(a.nsec)
	}
	return int(a.pos) - int(b.pos)
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{
		entries:       make(map[*memory.Document]*entry),
		terms:         make(map[string]int32),
		compactAfter:  defaultCompactAfter,
		coldAfter:     defaultColdAfter,
		parallelAfter: defaultParallelAfter,
		// One scorer per core: a cold Rank is CPU-bound and has nothing
		// else to wait for (issue 12: as many workers as cores).
		scorers:     max(runtime.GOMAXPROCS(0), 1),
		block:       defaultBlock,
		encodeChunk: defaultEncodeChunk,
	}
}

// Len reports how many document versions the index holds.
func (ix *Index) Len() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return len(ix.entries)
}

// Warm indexes the documents of docs that the index does not hold yet, so
// that later Rank calls over them are fast. It evicts nothing. Nil
// documents are skipped.
func (ix *Index) Warm(docs []*memory.Document) {
	for start := 0; start < len(docs); start += warmChunk {
		ix.mu.Lock()
		for _, d := range docs[start:min(start+warmChunk, len(docs))] {
			if d == nil {
				continue
			}
			if _, ok := ix.entries[d]; !ok {
				ix.add(d)
			}
		}
		ix.mu.Unlock()
	}
}

// Rank applies the active-tool noise filter to docs, then ranks the
// survivors. kept holds the documents the filter keeps, in input order (the
// pool both the fast result and the model selector draw from); ranked holds
// those with score > 0, best first (see Match). Nil documents are skipped.
// The result is identical to RankNaive's.
//
// Rank never lays a frozen index out again, whatever an earlier call left
// due: the host does, with Relayout, outside its queries (decision 0906).
// A host that ranks a changing tree and never calls Relayout gets the same
// answers, but keeps evicted documents' postings until it does.
func (ix *Index) Rank(q Query, docs []*memory.Document) (kept []*memory.Document, ranked []Match) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.rankLocked(&q, docs)
}

// rankLocked is Rank with ix.mu held, on the caller's copy of the query
// (without a second copy of the Query, 832 bytes).
func (ix *Index) rankLocked(q *Query, docs []*memory.Document) (kept []*memory.Document, ranked []Match) {
	// With nothing to score, indexing is the only useful work: an
	// unranked query indexes every new document, as Warm does.
	ix.sync(docs, q.Unranked())
	ix.scoreFresh(q, docs)
	w := ix.weighSlots(q)

	nt := len(q.tokens)
	kept = make([]*memory.Document, 0, len(docs))
	// Every scored document may take a key: one array of that bound, not
	// one grown by append, whose abandoned arrays held as much again as
	// the last and were each faulted in by a fresh process (decision
	// 0835). Only the part written is touched.
	keys := ix.keys[:0]
	if cap(keys) < len(docs) {
		keys = make([]rankKey, 0, len(docs))
	}
	var best int64
	named := false
	for i, d := range docs {
		var score int32
		var ev int64
		var fields field
		docNamed := false
		switch s := ix.slotOf[i]; s {
		case slotNil:
			continue
		case slotDirect:
			if ix.noise[i] {
				continue
			}
			for t, m := range ix.direct[i*nt : (i+1)*nt] {
				if m != 0 {
					score += w.tokenScore(t, m)
					ev += w.tokenEvidence(t, m)
					fields |= m
					docNamed = docNamed || q.nameToken(&w, t)
				}
			}
		default:
			if p := ix.slots[s].prep; p != nil && len(q.aliases) > 0 && mentionsTool(p.noiseText, q.aliases) {
				continue
			}
			score, ev, fields, docNamed = ix.scores[s], ix.evidence[s], ix.fields[s], ix.named[s]
		}
		kept = append(kept, d)
		if score > 0 {
			best = max(best, ev)
			named = named || docNamed
			keys = append(keys, rankKey{
				score: score + int32(boostPoints*q.typeBoostFor(d.Type)),
				pos:   int32(i),
				sec:   d.Modified.Unix(),
				nsec:  int32(d.Modified.Nanosecond()),
				far:   farOnly(fields),
			})
		}
	}
	ix.keys = keys
	if len(kept) == 0 {
		kept = nil // as RankNaive: nothing is nil, not empty
	}
	if len(keys) == 0 || !named && !q.answers(&w, best) {
		return kept, nil
	}
	// Sorting flat keys rather than Matches keeps the comparison to a few
	// integer compares; it orders exactly as compareMatches does.
	slices.SortFunc(keys, compareKeys)
	ranked = make([]Match, len(keys))
	for i, k := range keys {
		ranked[i] = Match{Doc: docs[k.pos], Score: int(k.score), Pos: int(k.pos), FarOnly: k.far}
	}
	return kept, ranked
}

// RankIf ranks docs for q, as Rank does, only if still reports true, and
// reports whether it ranked. still runs with the index locked, so no other
// call ranks or indexes between its answer and the ranking; it must not
// call the index. The ranking's answer is dropped: RankIf is for a host
// that ranks to prepare the index (its scratch arrays, its pages) and must
// not rank documents another caller has moved on from since.
func (ix *Index) RankIf(q Query, docs []*memory.Document, still func() bool) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if !still() {
		return false
	}
	ix.rankLocked(&q, docs)
	return true
}

// KeepAll returns what Rank keeps of docs for a query that is Unranked:
// every non-nil document, in order; nil if there is none. Rank ranks none
// of them. A host that does not want the index filled (an engine that
// answers one query and exits) can return this instead of calling Rank.
func KeepAll(docs []*memory.Document) []*memory.Document {
	n := 0
	for _, d := range docs {
		if d != nil {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	// One allocation of the exact size: appending from nil grew the
	// slice some twenty times for 10,000 documents.
	kept := make([]*memory.Document, 0, n)
	for _, d := range docs {
		if d != nil {
			kept = append(kept, d)
		}
	}
	return kept
}

// weighSlots gathers each query token's matches among the indexed
// documents (ix.hits) and, with the directly scored rows, its document
// frequency; it weighs the tokens and leaves each slot's score and
// evidence in ix.scores and ix.evidence. Input positions count as
// documents, as in RankNaive: a document given twice counts twice.
func (ix *Index) weighSlots(q *Query) weighing {
	ns, nt := len(ix.slots), len(q.tokens)
	ix.mult = grow(ix.mult, ns)
	ix.at = grow(ix.at, ns)
	ix.scores = grow(ix.scores, ns)
	ix.evidence = grow(ix.evidence, ns)
	ix.named = grow(ix.named, ns)
	ix.fields = grow(ix.fields, ns)
	ix.df = grow(ix.df, nt)
	n := 0
	for _, s := range ix.slotOf {
		if s == slotNil {
			continue
		}
		n++
		if s >= 0 {
			ix.mult[s]++
		}
	}
	// Each key of each token is looked up once, first, so that the hits
	// can go into one array of their bound instead of one grown by
	// append, whose abandoned arrays held as much again as the last and
	// were each faulted in by a fresh process (decision 0835). A token
	// gives at most one hit per slot, and each of its keys at most one
	// per posting (a frozen posting takes at least a byte).
	looks, bound := ix.looks[:0], 0
	for t, tok := range q.tokens {
		n := 0
		for k, key := range [...]string{tok, q.silentE[t], q.alts[t], q.translit[t]} {
			if k > 0 && key == "" {
				continue
			}
			l := keyLook{tok: int32(t), fold: k >= 2, base: ix.base.find(key)}
			l.id, l.live = ix.terms[key]
			n += len(l.base)
			if l.live {
				n += len(ix.lists[l.id])
			}
			looks = append(looks, l)
		}
		bound += min(n, ns)
	}
	hits, starts := ix.hits[:0], ix.starts[:0]
	if cap(hits) < bound {
		hits = make([]hit, 0, bound)
	}
	add := func(s int32, m field, fold bool) {
		if fold {
			m = folded(m)
		}
		if a := ix.at[s]; a != 0 {
			hits[a-1].mask |= m
			return
		}
		hits = append(hits, hit{s, m})
		ix.at[s] = int32(len(hits))
	}
	gather := func(l *keyLook) {
		if l.live {
			for _, p := range ix.lists[l.id] {
				if ix.slots[p.slot].gen == p.gen {
					add(p.slot, p.mask, l.fold)
				}
			}
		}
		// The base's postings: frozen.postings without the call back
		// per posting.
		p := l.base
		for doc := int64(-1); len(p) > 0; {
			d, m, n := ix.base.posting(p, doc)
			if n == 0 {
				ix.base.damage.Add(1)
				break
			}
			if ix.slots[d].gen == 0 {
				add(int32(d), m, l.fold)
			}
			doc, p = d, p[n:]
		}
	}
	next := 0
	for t := range q.tokens {
		from := len(hits)
		starts = append(starts, from)
		for ; next < len(looks) && int(looks[next].tok) == t; next++ {
			gather(&looks[next])
		}
		for _, h := range hits[from:] {
			ix.at[h.slot] = 0
			ix.df[t] += int(ix.mult[h.slot])
		}
	}
	clear(looks) // the frozen postings they view
	ix.looks = looks
	starts = append(starts, len(hits))
	if len(ix.fresh) > 0 && ix.slotOf[ix.fresh[0]] == slotDirect {
		for _, i := range ix.fresh {
			if ix.slotOf[i] != slotDirect {
				continue
			}
			for t, m := range ix.direct[i*nt : (i+1)*nt] {
				if m != 0 {
					ix.df[t]++
				}
			}
		}
	}
	w := q.weigh(n, ix.df, ix.idfBuf, ix.evBuf)
	ix.idfBuf, ix.evBuf = w.idf, w.ev
	for t := range nt {
		name := q.nameToken(&w, t)
		for _, h := range hits[starts[t]:starts[t+1]] {
			ix.scores[h.slot] += w.tokenScore(t, h.mask)
			ix.evidence[h.slot] += w.tokenEvidence(t, h.mask)
			ix.fields[h.slot] |= h.mask
			ix.named[h.slot] = ix.named[h.slot] || name
		}
	}
	clear(ix.mult)
	ix.hits, ix.starts = hits, starts
	return w
}

// grow returns s with length n, zeroed, reusing its array when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// scoreFresh scores the documents sync left unindexed (ix.fresh, when
// marked slotDirect): their rows of token masks go to ix.direct and the
// noise filter's verdict to ix.noise. A cold call meets hundreds or
// thousands of them and nothing else to do, so it splits them over up to
// ix.scorers goroutines, each taking blocks of ix.block positions from a
// shared counter and writing only its own positions.
func (ix *Index) scoreFresh(q *Query, docs []*memory.Document) {
	fresh := ix.fresh
	if len(fresh) == 0 || ix.slotOf[fresh[0]] != slotDirect {
		return // none, or sync indexed them all
	}
	ix.direct = grow(ix.direct, len(docs)*len(q.tokens))
	ix.noise = grow(ix.noise, len(docs))
	block := ix.block
	workers := min(ix.scorers, (len(fresh)+block-1)/block)
	if len(fresh) < ix.parallelAfter || workers < 2 {
		ix.scoreRange(q, docs, fresh, &ix.keyBuf)
		return
	}
	ix.scoreParallel(*q, docs, workers)
}

// scoreParallel is scoreFresh's split over workers goroutines. It takes
// the query by value so that only a parallel call pays for moving it to
// the heap: Rank over indexed documents stays at two allocations.
func (ix *Index) scoreParallel(q Query, docs []*memory.Document, workers int) {
	fresh, block := ix.fresh, ix.block
	var next atomic.Int64
	var wg sync.WaitGroup
	work := func(buf *[]string) {
		for {
			from := int(next.Add(int64(block))) - block
			if from >= len(fresh) {
				return
			}
			ix.scoreRange(&q, docs, fresh[from:min(from+block, len(fresh))], buf)
		}
	}
	for range workers - 1 {
		wg.Go(func() {
			var buf []string
			work(&buf)
		})
	}
	work(&ix.keyBuf)
	wg.Wait()
}

// scoreRange scores the documents at positions of docs into ix.direct and
// ix.noise. Concurrent calls write disjoint positions.
func (ix *Index) scoreRange(q *Query, docs []*memory.Document, positions []int, buf *[]string) {
	nt := len(q.tokens)
	for _, i := range positions {
		var masks [MaxQueryTokens]field
		ix.noise[i] = scoreDirect(q, docs[i], buf, &masks)
		copy(ix.direct[i*nt:(i+1)*nt], masks[:nt])
	}
}

// scoreDirect matches a document that is not indexed: it fills masks with
// the fields each query token matches and reports whether the noise
// filter removes the document. buf is the caller's scratch for a token's
// keys. A removed document is matched all the same: it counts in the
// tokens' document frequencies.
func scoreDirect(q *Query, d *memory.Document, buf *[]string, masks *[MaxQueryTokens]field) (noise bool) {
	if len(q.aliases) > 0 {
		// The noise filter reads the normalised text: normalise first,
		// and score what it read.
		text, _ := normalizedTextASCII(d)
		nt, ok := text.usageOnly()
		noise = ok && mentionsTool(nt, q.aliases)
		if len(q.tokens) == 0 {
			return noise
		}
		for fi, s := range text {
			scoreField(q, s, fieldOf[fi], buf, masks)
		}
		return noise
	}
	if len(q.tokens) == 0 {
		return false
	}
	scoreField(q, d.Title, fieldTitle, buf, masks)
	scoreField(q, d.Description, fieldDescription, buf, masks)
	// Whether a body of up to four bytes per window rune is within the
	// window is a question of valid UTF-8, which scoring the body as it
	// stands decides without a pass of its own.
	w, far, unchecked := splitBodyUnchecked(d.Body, false)
	if !unchecked {
		scoreField(q, w, fieldBody, buf, masks)
	} else if !scoreRawField(q, w, fieldBody, buf, masks) {
		// The raw pass gave up on this window: the general tokenizer
		// scores it, without scoreField trying the ASCII and raw passes
		// over it again up to where this one stopped.
		w, far = splitBody(d.Body)
		forEachFieldKey(q, Normalize(w), fieldBody, buf, func(k string, f field) { q.apply(masks, k, f) })
	}
	scoreField(q, far, fieldFar, buf, masks)
	return false
}

// sync makes the index hold the documents of docs (indexing new ones, or,
// when there are many and indexAll is false, marking them for direct
// scoring), evicts documents not in docs, and fills ix.slotOf for every
// input position.
func (ix *Index) sync(docs []*memory.Document, indexAll bool) {
	ix.epoch++
	if cap(ix.slotOf) < len(docs) {
		ix.slotOf = make([]int32, len(docs))
	}
	ix.slotOf = ix.slotOf[:len(docs)]
	fresh := ix.fresh[:0]
	distinct := 0
	for i, d := range docs {
		if d == nil {
			ix.slotOf[i] = slotNil
			continue
		}
		e, ok := ix.entries[d]
		if !ok {
			ix.slotOf[i] = slotDirect
			if len(fresh) == cap(fresh) {
				// At most every document left is new: one array at that
				// bound, not a doubling on the way (a cold query's first
				// sync), as rankLocked's keys (decision 0835).
				fresh = slices.Grow(fresh, len(docs)-i)
			}
			fresh = append(fresh, i)
			continue
		}
		if e.seen != ix.epoch {
			e.seen = ix.epoch
			distinct++
		}
		ix.slotOf[i] = e.slot
	}
	ix.fresh = fresh
	if distinct < len(ix.entries) {
		ix.evictUnseen()
	}
	if len(fresh) > ix.coldAfter && !indexAll {
		return // cold: score the new documents directly
	}
	for _, i := range fresh {
		d := docs[i]
		e, ok := ix.entries[d] // the same pointer may repeat
		if !ok {
			e = ix.add(d)
		}
		e.seen = ix.epoch
		ix.slotOf[i] = e.slot
	}
}

// add prepares d and indexes it in a free slot.
func (ix *Index) add(d *memory.Document) *entry {
	ix.changes++
	var s int32
	if n := len(ix.free); n > 0 {
		s = ix.free[n-1]
		ix.free = ix.free[:n-1]
	} else {
		s = int32(len(ix.slots))
		ix.slots = append(ix.slots, slot{})
	}
	gen := ix.slots[s].gen
	postings := int32(0)
	text := normalizedText(d)
	text.forEachKey(nil, &ix.keyBuf, func(k string, f field) {
		id, ok := ix.terms[k]
		if !ok {
			id = int32(len(ix.lists))
			// A key is a substring of a whole normalised field; cloning it
			// lets that text go when the document does.
			ix.terms[strings.Clone(k)] = id
			// Room for a few documents saves the first regrowths of the
			// many lists that stay short.
			ix.lists = append(ix.lists, make([]posting, 0, 4))
		}
		l := ix.lists[id]
		// A document's postings are appended together, so a repeat of the
		// key in this document can only be the list's last posting.
		if n := len(l); n > 0 && l[n-1].slot == s && l[n-1].gen == gen {
			l[n-1].mask |= f
			return
		}
		ix.lists[id] = append(l, posting{slot: s, gen: gen, mask: f})
		postings++
	})
	var p *prepared
	if noise, usageOnly := text.usageOnly(); usageOnly {
		p = &prepared{noiseText: noise}
	}
	ix.slots[s].prep = p
	ix.slots[s].postings = postings
	ix.total += int(postings)
	e := &entry{slot: s}
	ix.entries[d] = e
	return e
}

// evictUnseen drops documents not seen in the current call. Their postings
// go stale and are removed in bulk once they outnumber the live ones.
func (ix *Index) evictUnseen() {
	for d, e := range ix.entries {
		if e.seen == ix.epoch {
			continue
		}
		ix.changes++
		sl := &ix.slots[e.slot]
		ix.stale += int(sl.postings)
		sl.prep, sl.postings = nil, 0
		sl.gen++
		ix.free = append(ix.free, e.slot)
		delete(ix.entries, d)
	}
	if ix.stale > ix.compactAfter && ix.stale*2 > ix.total {
		if ix.base != nil {
			// Slot numbers must hold until Rank is done: Relayout
			// lays the index out again after it.
			ix.refreeze = true
		} else {
			ix.compact()
		}
	}
}

// compact rebuilds the term table without stale postings and empty lists.
// An index with a base is laid out again instead (Relayout).
func (ix *Index) compact() {
	ix.changes++
	terms := make(map[string]int32, len(ix.terms))
	lists := make([][]posting, 0, len(ix.lists))
	for k, id := range ix.terms {
		var live []posting
		for _, p := range ix.lists[id] {
			if ix.slots[p.slot].gen == p.gen {
				live = append(live, p)
			}
		}
		if len(live) > 0 {
			terms[k] = int32(len(lists))
			lists = append(lists, live)
		}
	}
	ix.terms, ix.lists = terms, lists
	ix.total -= ix.stale
	ix.stale = 0
}
