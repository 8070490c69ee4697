package score

import (
	"slices"
	"sync"

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
// An Index is safe for concurrent use; calls to Rank are serialised. It is
// meant to serve one catalog: callers that alternate between different
// document sets make each other's documents look removed and re-prepared.
type Index struct {
	mu sync.Mutex
	// entries maps a cached document to its slot.
	entries map[*memory.Document]*entry
	// slots holds cached documents; a freed slot's generation is bumped so
	// that postings still naming it are recognised as stale.
	slots []slot
	free  []int32
	// postings maps a query token to the documents it matches.
	// Invariant: a posting is live iff its gen equals slots[slot].gen.
	postings map[string][]posting
	// stale and total count postings, to decide when to compact.
	stale, total int
	// compactAfter is the least number of stale postings worth a
	// compaction; tests lower it to exercise compaction.
	compactAfter int
	epoch        uint64

	// scratch reused across calls.
	scores []int32
	slotOf []int32
	keys   []rankKey
}

// rankKey is a match reduced to what orders it.
type rankKey struct {
	score int32
	pos   int32
	sec   int64 // modification time, seconds since the Unix epoch
	nsec  int32
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

type entry struct {
	slot int32
	seen uint64
}

type slot struct {
	prep *prepared
	gen  uint32
}

type posting struct {
	slot int32
	gen  uint32
	mask field
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{
		entries:      make(map[*memory.Document]*entry),
		postings:     make(map[string][]posting),
		compactAfter: 1024,
	}
}

// Len reports how many document versions the index holds.
func (ix *Index) Len() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return len(ix.entries)
}

// Rank applies the active-tool noise filter to docs, then ranks the
// survivors. kept holds the documents the filter keeps, in input order (the
// pool both the fast result and the model selector draw from); ranked holds
// those with score > 0, best first (see Match). Nil documents are skipped.
// The result is identical to RankNaive's.
func (ix *Index) Rank(q Query, docs []*memory.Document) (kept []*memory.Document, ranked []Match) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.sync(docs)

	scores := ix.scoreSlots(q)
	kept = make([]*memory.Document, 0, len(docs))
	keys := ix.keys[:0]
	for i, d := range docs {
		if d == nil {
			continue
		}
		s := ix.slotOf[i]
		p := ix.slots[s].prep
		if p.usageOnly && len(q.aliases) > 0 && mentionsTool(p.noiseText, q.aliases) {
			continue
		}
		kept = append(kept, d)
		if sc := scores[s]; sc > 0 {
			keys = append(keys, rankKey{
				score: sc + int32(q.typeBoostFor(d.Type)),
				pos:   int32(i),
				sec:   p.modSec,
				nsec:  p.modNsec,
			})
		}
	}
	ix.keys = keys
	if len(keys) == 0 {
		return kept, nil // as RankNaive: no match is nil, not empty
	}
	// Sorting flat keys rather than Matches keeps the comparison to a few
	// integer compares; it orders exactly as compareMatches does.
	slices.SortFunc(keys, compareKeys)
	ranked = make([]Match, len(keys))
	for i, k := range keys {
		ranked[i] = Match{Doc: docs[k.pos], Score: int(k.score), Pos: int(k.pos)}
	}
	return kept, ranked
}

// scoreSlots returns each slot's field score for q. The slice is scratch
// owned by ix.
func (ix *Index) scoreSlots(q Query) []int32 {
	if cap(ix.scores) < len(ix.slots) {
		ix.scores = make([]int32, len(ix.slots))
	}
	scores := ix.scores[:len(ix.slots)]
	clear(scores)
	for _, t := range q.tokens {
		for _, p := range ix.postings[t] {
			if ix.slots[p.slot].gen == p.gen {
				scores[p.slot] += fieldWeight[p.mask]
			}
		}
	}
	return scores
}

// sync makes the index hold exactly the documents of docs, and fills
// ix.slotOf with each input position's slot.
func (ix *Index) sync(docs []*memory.Document) {
	ix.epoch++
	if cap(ix.slotOf) < len(docs) {
		ix.slotOf = make([]int32, len(docs))
	}
	ix.slotOf = ix.slotOf[:len(docs)]
	distinct := 0
	for i, d := range docs {
		if d == nil {
			ix.slotOf[i] = -1
			continue
		}
		e, ok := ix.entries[d]
		if !ok {
			e = ix.add(d)
		}
		if e.seen != ix.epoch {
			e.seen = ix.epoch
			distinct++
		}
		ix.slotOf[i] = e.slot
	}
	if distinct < len(ix.entries) {
		ix.evictUnseen()
	}
}

// add prepares d and indexes it in a free slot.
func (ix *Index) add(d *memory.Document) *entry {
	p := prepare(d)
	var s int32
	if n := len(ix.free); n > 0 {
		s = ix.free[n-1]
		ix.free = ix.free[:n-1]
	} else {
		s = int32(len(ix.slots))
		ix.slots = append(ix.slots, slot{})
	}
	ix.slots[s].prep = p
	gen := ix.slots[s].gen
	for i, k := range p.keys {
		ix.postings[k] = append(ix.postings[k], posting{slot: s, gen: gen, mask: p.masks[i]})
	}
	ix.total += len(p.keys)
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
		sl := &ix.slots[e.slot]
		ix.stale += len(sl.prep.keys)
		sl.prep = nil
		sl.gen++
		ix.free = append(ix.free, e.slot)
		delete(ix.entries, d)
	}
	if ix.stale > ix.compactAfter && ix.stale*2 > ix.total {
		ix.compact()
	}
}

// compact removes stale postings and empty posting lists.
func (ix *Index) compact() {
	for k, list := range ix.postings {
		live := list[:0]
		for _, p := range list {
			if ix.slots[p.slot].gen == p.gen {
				live = append(live, p)
			}
		}
		if len(live) == 0 {
			delete(ix.postings, k)
			continue
		}
		clear(list[len(live):])
		ix.postings[k] = live
	}
	ix.total -= ix.stale
	ix.stale = 0
}
