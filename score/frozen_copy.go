package score

import (
	"iter"
	"runtime"
	"time"
	"unsafe"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/memory"
)

// What EncodeFrozen copies out under the index's lock, and how
// (decision 0836). A posting list only grows while its term is live:
// add appends to it, and the mask it may still OR in belongs to the
// posting that same add appended. compact and adopt put new lists in
// place and leave the old arrays alone. A frozen base is never written
// once installed. So a list header copied under the lock keeps
// describing the same postings after the lock is given up, and the base
// can be read without the lock at all: what must be copied under it is
// only the small part of the index that changes in place (the slots'
// generations, the documents' slots, the list headers and the term map's
// keys). The copy takes several holds; the change counter, bumped by
// every path that changes any of it (add, evictUnseen, compact, install,
// and adopt, where Freeze and Relayout end), says whether the index stood
// still between them, and if it did not, the copy starts again. Freeze
// and Relayout copy the same way (layOut).

// slotCopy is one slot as an encoding sees it: the position in the
// encoding of the slot's document (−1 when it is not one of the
// encoding's documents) and the slot's generation.
type slotCopy struct {
	ord int32
	gen uint32
}

// termRef is one live term: its key and its list's index in lists.
type termRef struct {
	key string
	id  int32
}

// frozenCopy is one state of the index, as an encoding of some documents
// needs it: their meta words, every slot, the live lists' headers and
// keys, and the base. collect lays the postings out from it without the
// lock.
type frozenCopy struct {
	meta  []uint32
	slots []slotCopy
	lists [][]posting
	terms []termRef
	base  *frozen
}

// copyStats reports how a copy went, for the benchmark: the holds of
// the lock it took, their sum and the longest, on the wall clock and in
// the thread's CPU time (which a hold that the system descheduled does
// not inflate), and the copies started again.
type copyStats struct {
	holds         int
	held, longest time.Duration
	longestCPU    time.Duration
	// between, when not nil, runs before each hold after the first, with
	// the lock free: tests change the index there.
	between func()
}

// holdTimer times one hold of the lock when st is not nil.
type holdTimer struct {
	st   *copyStats
	wall time.Time
	cpu  time.Duration
}

func (st *copyStats) start() holdTimer {
	if st == nil {
		return holdTimer{}
	}
	return holdTimer{st, time.Now(), cputime.Thread()}
}

func (h holdTimer) stop() {
	st := h.st
	if st == nil {
		return
	}
	cpu, wall := cputime.Thread()-h.cpu, time.Since(h.wall)
	st.holds++
	st.held += wall
	st.longest = max(st.longest, wall)
	st.longestCPU = max(st.longestCPU, cpu)
}

// maxCopyTries is how many times copyFrozen copies in short holds before
// it copies in one: a copy starts again only when a document of the
// encoding was evicted or the index changed between two holds, which a
// query does only when it ranks another set of documents.
const maxCopyTries = 4

// copier is a copy under way: its progress through the documents, the
// slots, the list headers and the term map.
type copier struct {
	ix    *Index
	docs  []*memory.Document
	chunk int
	c     frozenCopy
	// doc, slot and list are the next document, slot and list header to
	// copy; terms walks the term map in chunks (see newCopier) until it
	// reports false.
	doc, slot, list int
	next            func() (struct{}, bool)
	stop            func()
	termsDone       bool
	// missing reports that the index did not hold some document of docs.
	missing bool
	// sizes are the slots, lists and terms the index had when the copy
	// began.
	sizes [3]int
}

// newCopier starts a copy of the index's present state for docs; the
// caller holds the lock. It only reads sizes: alloc makes the arrays,
// without the lock.
func newCopier(ix *Index, docs []*memory.Document) *copier {
	cp := &copier{ix: ix, docs: docs, chunk: max(ix.encodeChunk, 1)}
	cp.c.base = ix.base
	ns, nl, nt := len(ix.slots), len(ix.lists), len(ix.terms)
	terms := ix.terms
	cp.sizes = [3]int{ns, nl, nt}
	// The term map is walked by a coroutine, one chunk per resumption:
	// the walk is only ever resumed with the lock held and the index
	// unchanged since newCopier ran, so the map it walks has not been
	// written between its chunks.
	cp.next, cp.stop = iter.Pull(func(yield func(struct{}) bool) {
		n := 0
		for k, id := range terms {
			cp.c.terms = append(cp.c.terms, termRef{k, id})
			if n++; n == cp.chunk {
				n = 0
				if !yield(struct{}{}) {
					return
				}
			}
		}
	})
	return cp
}

// alloc makes the copy's arrays at the sizes newCopier read, or reuses
// those of reuse (an earlier copy's, or nil) where they are large
// enough: meta zero, every slot's position −1. A new array has every page
// touched, so that the copy under the lock does not take the page faults
// of arrays of millions of entries (17-19 µs each on decision 0801's VM,
// about 4.3 µs on the tenth round's; BenchmarkPageFault).
// It needs no lock.
func (cp *copier) alloc(reuse *frozenCopy) {
	var r frozenCopy
	if reuse != nil {
		r = *reuse
	}
	c := &cp.c
	c.meta = sized(r.meta, len(cp.docs))
	c.slots = sized(r.slots, cp.sizes[0])
	for i := range c.slots {
		c.slots[i].ord = -1
	}
	c.lists = sized(r.lists, cp.sizes[1])
	c.terms = sized(r.terms, cp.sizes[2])[:0]
}

// sized returns s with length n, zeroed, when its array is large enough,
// else a new array with every page touched.
func sized[T any](s []T, n int) []T {
	if cap(s) >= n {
		s = s[:n]
		clear(s)
		return s
	}
	s = make([]T, n)
	touch(s)
	return s
}

// touch writes a zero into each page of s's array.
func touch[T any](s []T) {
	var zero T
	step := max(1, 4096/int(unsafe.Sizeof(zero)))
	for i := 0; i < len(s); i += step {
		s[i] = zero
	}
}

// step copies one chunk with the lock held and reports whether the copy
// is complete: chunk/8 documents (a map look-up each), 4 × chunk slots or
// list headers (a plain copy), or chunk terms of the map walk. A
// document the index does not hold sets cp.missing.
func (cp *copier) step() bool {
	ix, c := cp.ix, &cp.c
	switch {
	case cp.doc < len(cp.docs):
		end := min(cp.doc+max(cp.chunk/8, 1), len(cp.docs))
		for i := cp.doc; i < end; i++ {
			d := cp.docs[i]
			if d == nil {
				continue
			}
			e, ok := ix.entries[d]
			if !ok {
				cp.missing = true
				continue
			}
			sc := &c.slots[e.slot]
			if sc.ord >= 0 {
				continue // a repeat: left unindexed
			}
			sc.ord = int32(i)
			sl := &ix.slots[e.slot]
			c.meta[i] = frozenIndexed | uint32(sl.postings)
			if sl.prep != nil {
				c.meta[i] |= frozenUsage
			}
		}
		cp.doc = end
	case cp.slot < len(c.slots):
		end := min(cp.slot+4*cp.chunk, len(c.slots))
		for s := cp.slot; s < end; s++ {
			c.slots[s].gen = ix.slots[s].gen
		}
		cp.slot = end
	case cp.list < len(c.lists):
		end := min(cp.list+4*cp.chunk, len(c.lists))
		copy(c.lists[cp.list:end], ix.lists[cp.list:end])
		cp.list = end
	case !cp.termsDone:
		_, more := cp.next()
		cp.termsDone = !more
	}
	return cp.doc == len(cp.docs) && cp.slot == len(c.slots) && cp.list == len(c.lists) && cp.termsDone
}

// copyFrozen copies the index's state for an encoding of docs in short
// holds of the lock, starting again when the index changed between two of
// them (after indexing again the documents of docs it does not hold), and
// after maxCopyTries such starts copies it in one hold. It returns the
// copy and the index's change count it was copied at. st, when not nil,
// gets the holds' account.
func (ix *Index) copyFrozen(docs []*memory.Document, st *copyStats) (*frozenCopy, uint64) {
	var prev *frozenCopy
	for range maxCopyTries {
		c, changes, ok := ix.tryCopy(docs, prev, st)
		if ok {
			return c, changes
		}
		prev = c
		ix.Warm(docs)
	}
	// The arrays are made before the last hold, with room for what the
	// index may gain meanwhile; only an index that outgrew them makes
	// them again in the hold.
	ix.mu.Lock()
	cp := newCopier(ix, docs)
	ix.mu.Unlock()
	cp.stop()
	for i, n := range cp.sizes {
		cp.sizes[i] = n + n/8 + 64
	}
	cp.alloc(prev)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	h := st.start()
	ix.copyLocked++
	c := ix.copyFrozenLocked(docs, &cp.c, false)
	h.stop()
	return c, ix.changes
}

// tryCopy copies docs in short holds once, from the index's change count
// it returns. ok is false when the index changed, or evicted a document
// of docs, between two holds; the copy is then partial, and its arrays
// are for the next try to reuse.
func (ix *Index) tryCopy(docs []*memory.Document, prev *frozenCopy, st *copyStats) (c *frozenCopy, changes uint64, ok bool) {
	ix.mu.Lock()
	h := st.start()
	changes = ix.changes
	cp := newCopier(ix, docs)
	h.stop()
	ix.mu.Unlock()
	cp.alloc(prev)
	if c, ok := cp.run(changes, st); ok {
		return c, changes, true
	}
	ix.mu.Lock()
	ix.copyRestarts++
	ix.mu.Unlock()
	return &cp.c, changes, false
}

// run takes the copy's holds, one chunk each, and reports whether the
// index stood at changes throughout and held every document.
func (cp *copier) run(changes uint64, st *copyStats) (*frozenCopy, bool) {
	defer cp.stop()
	ok := cp.ix.inHolds(changes, st, cp.stop, func() (done, ok bool) {
		done = cp.step()
		return done, !(cp.missing && cp.doc == len(cp.docs))
	})
	if !ok {
		return nil, false
	}
	return &cp.c, true
}

// inHolds runs step in short holds of the index's lock, one call a hold,
// until step reports done, and reports whether every hold found the index
// at before and every step was ok. When the index changed between two
// holds, stop is called with the lock held (a walk then touches the index
// no more) and inHolds returns false; a step that is not ok ends it too.
// st's between hook runs before each hold. After each hold the goroutine
// yields: a query that came to wait for the lock during the hold has been
// woken onto this goroutine's processor, and goes first rather than meet
// the lock taken again.
func (ix *Index) inHolds(before uint64, st *copyStats, stop func(), step func() (done, ok bool)) bool {
	for {
		if st != nil && st.between != nil {
			st.between()
		}
		ix.mu.Lock()
		h := st.start()
		if ix.changes != before {
			stop()
			h.stop()
			ix.mu.Unlock()
			return false
		}
		done, ok := step()
		h.stop()
		ix.mu.Unlock()
		runtime.Gosched()
		if !ok {
			return false
		}
		if done {
			return true
		}
	}
}

// copyFrozenLocked is the copy made in one hold, in reuse's arrays where
// they are large enough (reuse may be nil); the caller holds the lock. It
// indexes the documents of docs the index does not hold first. With
// share, the copy views the index's own list headers instead of copying
// them: for a caller that keeps the lock until it is done with the copy
// (freezeLocked), which is then spared an array as long as the term
// table.
func (ix *Index) copyFrozenLocked(docs []*memory.Document, reuse *frozenCopy, share bool) *frozenCopy {
	for _, d := range docs {
		if _, ok := ix.entries[d]; d != nil && !ok {
			ix.add(d) // evicted since Warm
		}
	}
	cp := newCopier(ix, docs)
	defer cp.stop()
	if share {
		cp.sizes[1] = 0
	}
	cp.alloc(reuse)
	for !cp.step() {
	}
	if share {
		cp.c.lists = ix.lists
	}
	return &cp.c
}

// collect lays out the postings of c's documents, reading the live lists
// through c's headers and the base directly; it needs no lock. It returns
// the meta words and terms encodeFrozen takes; a term's postings may
// still need sorting (encodeFrozen does it).
func (c *frozenCopy) collect() ([]uint32, []frozenTerm) {
	// Every posting laid out belongs to one of the documents, whose meta
	// words count them: size the buffer once, since growing a slice of
	// millions of postings copies and faults in its pages several times
	// over. The sum is an int64: the counts are up to 2³⁰ each, and
	// where int has 32 bits (386, arm) a few hostile ones made it
	// negative, and make panicked.
	var total int64
	for _, m := range c.meta {
		total += int64(m & frozenCount)
	}
	// The counts of documents loaded from a snapshot are the data's word,
	// unchecked (LoadFrozen checks no posting): a hostile count of 2³⁰
	// would size the buffer at 8 GB. No more postings exist than the live
	// lists hold and the base's bytes can encode, one byte at least each.
	limit := 0
	for _, l := range c.lists {
		limit += len(l)
	}
	f := c.base
	nterms := len(c.terms)
	if f != nil {
		limit += len(f.records) + len(f.lists)
		nterms += f.terms + f.grams
	}
	all := make([]frozenPosting, 0, int(min(total, int64(limit))))
	terms := make([]frozenTerm, 0, nterms)
	live := func(id int32) {
		for _, p := range c.lists[id] {
			if s := c.slots[p.slot]; s.ord >= 0 && s.gen == p.gen {
				all = append(all, frozenPosting{s.ord, p.mask})
			}
		}
	}
	// both holds the live terms the base has too: their postings are
	// laid out with the base's.
	var both map[string]int32
	if f != nil {
		for _, t := range c.terms {
			if f.find(t.key) != nil {
				if both == nil {
					both = make(map[string]int32)
				}
				both[t.key] = t.id
			}
		}
		f.each(func(k []byte, gram uint32, p []byte) {
			start := len(all)
			f.postings(p, func(doc int32, m field) {
				if s := c.slots[doc]; s.gen == 0 && s.ord >= 0 {
					all = append(all, frozenPosting{s.ord, m})
				}
			})
			if both != nil {
				if id, ok := both[string(k)]; ok {
					live(id)
				}
			}
			if len(all) == start {
				return
			}
			t := frozenTerm{postings: all[start:len(all):len(all)]}
			// A gram goes on by its key, without a string of its own,
			// unless loaded data holds one that its characters do not
			// give back (then it is laid out by its characters, as
			// any other key).
			if g, ok := gramKey(string(k)); ok && g == gram {
				t.gram = g
			} else {
				t.key = string(k)
			}
			terms = append(terms, t)
		})
	}
	for _, t := range c.terms {
		if _, ok := both[t.key]; ok {
			continue // laid out with the base's
		}
		start := len(all)
		live(t.id)
		if len(all) > start {
			terms = append(terms, frozenTerm{key: t.key, postings: all[start:len(all):len(all)]})
		}
	}
	return c.meta, terms
}
