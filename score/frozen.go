package score

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/memrecall/memrecall/memory"
)

// A frozen index is the postings of a fixed list of documents laid out in
// one flat byte slice, so that it can be written into a snapshot and used
// by a fresh process as it is: loading it costs a look at its header and a
// slot per document, not a tokenisation per document nor a map insertion
// per key (docs/decisions/0121-frozen-index.md).
//
// Layout, integers little-endian:
//
//	magic     8 bytes, frozenMagic
//	header    4 × u32: documents, terms, table slots (a power of two), record bytes
//	meta      documents × u32: the document's posting count, | frozenUsage
//	          when the noise filter's usage-only half holds, | frozenIndexed
//	          when the document is indexed at all
//	table     slots × u32: 0 for empty, else 1 + the offset of a term's
//	          record; open addressing by frozenHash of the key, linear probing
//	records   per term: uvarint key length, key, uvarint postings length,
//	          postings by increasing document number: the gap to the
//	          previous document (the first: the number itself) as a uvarint,
//	          then the field mask byte
//
// Only the header and the meta words are checked when the data is loaded;
// a table entry, a record and a posting are checked where they are read,
// and anything out of bounds is dropped and counted (Index.FrozenDamage),
// never trusted: a lookup is bounded by the table's size, a record by the
// data, a document number by the documents. A snapshot's checksum makes
// such damage the deliberate act of the file's owner, so the cost of a full
// check at every start is not paid for it.
type frozen struct {
	docs    int
	terms   int
	mask    uint32 // table slots − 1
	meta    []byte // documents × u32
	table   []byte // slots × u32
	records []byte
	// damage counts what reading refused. Readers hold the index's lock;
	// the count is atomic so that it stays sound for any other reader.
	damage atomic.Int64
}

// frozenMagic opens an encoded frozen index; its last byte is the layout's
// version.
const frozenMagic = "mrfrozn\x02"

const (
	frozenHeader  = len(frozenMagic) + 4*4
	frozenUsage   = 1 << 31
	frozenIndexed = 1 << 30
	frozenCount   = 1<<30 - 1
)

// Errors LoadFrozen reports; the index is left as it was.
var (
	// ErrFrozenCorrupt: the data is not a frozen index of the given
	// documents.
	ErrFrozenCorrupt = errors.New("score: frozen index corrupt")
	// ErrIndexNotEmpty: a frozen index is loaded only into an empty index.
	ErrIndexNotEmpty = errors.New("score: frozen index loaded into a used index")
)

// frozenHash is FNV-1a: fixed, so a table written by one process is read
// by another.
func frozenHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func u32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }

// record reads the term record at off: its key and postings, and the
// offset of the next record; ok is false when it does not fit the data.
func (f *frozen) record(off int) (key, postings []byte, next int, ok bool) {
	r := f.records
	if off < 0 || off >= len(r) {
		return nil, nil, 0, false
	}
	kl, n := binary.Uvarint(r[off:])
	if n <= 0 || kl > uint64(len(r)-off-n) {
		return nil, nil, 0, false
	}
	off += n
	key = r[off : off+int(kl)]
	off += int(kl)
	pl, n := binary.Uvarint(r[off:])
	if n <= 0 || pl > uint64(len(r)-off-n) {
		return nil, nil, 0, false
	}
	off += n
	return key, r[off : off+int(pl)], off + int(pl), true
}

// find returns the postings of key, or nil.
func (f *frozen) find(key string) []byte {
	if f == nil || f.terms == 0 {
		return nil
	}
	i := frozenHash(key) & f.mask
	for range f.mask + 1 {
		v := u32(f.table, int(i))
		if v == 0 {
			return nil
		}
		k, p, _, ok := f.record(int(v - 1))
		if !ok {
			f.damage.Add(1)
		} else if string(k) == key {
			return p
		}
		i = (i + 1) & f.mask
	}
	return nil
}

// each calls fn with every term's key and postings, in record order,
// until a record does not fit the data.
func (f *frozen) each(fn func(key, postings []byte)) {
	for off := 0; off < len(f.records); {
		k, p, next, ok := f.record(off)
		if !ok {
			f.damage.Add(1)
			return
		}
		fn(k, p)
		off = next
	}
}

// postings calls fn with each posting of p, a term's postings as find
// returns them, until one is out of bounds.
func (f *frozen) postings(p []byte, fn func(doc int32, m field)) {
	doc := int64(-1)
	for len(p) > 0 {
		gap, n := binary.Uvarint(p)
		if n <= 0 || n >= len(p) || gap >= uint64(f.docs) || doc+int64(gap)+1 >= int64(f.docs) || p[n] == 0 {
			f.damage.Add(1)
			return
		}
		doc += int64(gap) + 1
		fn(int32(doc), field(p[n]))
		p = p[n+1:]
	}
}

// decodeFrozen checks data's header against docs documents and returns
// the frozen index it holds, sharing data's memory. Every length is
// checked against the data before anything is sized by it.
func decodeFrozen(data []byte, docs int) (*frozen, error) {
	bad := func(what string) (*frozen, error) { return nil, fmt.Errorf("%w: %s", ErrFrozenCorrupt, what) }
	if len(data) < frozenHeader || string(data[:len(frozenMagic)]) != frozenMagic {
		return bad("magic")
	}
	h := data[len(frozenMagic):]
	nd, nt, ns, nr := u32(h, 0), u32(h, 1), u32(h, 2), u32(h, 3)
	if int64(nd) != int64(docs) {
		return bad("document count")
	}
	if ns == 0 || ns&(ns-1) != 0 || uint64(ns) <= uint64(nt) {
		return bad("table size")
	}
	if uint64(frozenHeader)+4*uint64(nd)+4*uint64(ns)+uint64(nr) != uint64(len(data)) {
		return bad("length")
	}
	f := &frozen{docs: int(nd), terms: int(nt), mask: ns - 1}
	rest := data[frozenHeader:]
	f.meta, rest = rest[:4*nd:4*nd], rest[4*nd:]
	f.table, f.records = rest[:4*ns:4*ns], rest[4*ns:]
	for d := range int(nd) {
		if m := u32(f.meta, d); m&frozenIndexed == 0 && m != 0 {
			return bad("document")
		}
	}
	return f, nil
}

// frozenPosting is one posting on its way into an encoding.
type frozenPosting struct {
	doc  int32
	mask field
}

// frozenTerm is one term on its way into an encoding.
type frozenTerm struct {
	key      string
	postings []frozenPosting
}

// encodeFrozen lays out terms (keys distinct) over the documents of meta;
// it sorts each term's postings by document.
func encodeFrozen(meta []uint32, terms []frozenTerm) []byte {
	nt := len(terms)
	ns := uint32(1)
	for uint64(ns) < uint64(nt)+uint64(nt)/4+1 { // load at most 0.8
		ns <<= 1
	}
	size := frozenHeader + 4*len(meta) + 4*int(ns)
	for _, t := range terms {
		size += len(t.key) + 2*len(t.postings) + 4
	}
	b := make([]byte, 0, size+size/8)
	b = append(b, frozenMagic...)
	for _, v := range [4]uint32{uint32(len(meta)), uint32(nt), ns, 0} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for _, m := range meta {
		b = binary.LittleEndian.AppendUint32(b, m)
	}
	table := len(b)
	b = append(b, make([]byte, 4*int(ns))...)
	records := len(b)
	mask := ns - 1
	var post []byte
	for _, term := range terms {
		sortFrozenPostings(term.postings)
		i := frozenHash(term.key) & mask
		for binary.LittleEndian.Uint32(b[table+4*int(i):]) != 0 {
			i = (i + 1) & mask
		}
		binary.LittleEndian.PutUint32(b[table+4*int(i):], uint32(len(b)-records+1))
		b = binary.AppendUvarint(b, uint64(len(term.key)))
		b = append(b, term.key...)
		post = post[:0]
		prev := int32(-1)
		for _, p := range term.postings {
			post = binary.AppendUvarint(post, uint64(p.doc-prev-1))
			post = append(post, byte(p.mask))
			prev = p.doc
		}
		b = binary.AppendUvarint(b, uint64(len(post)))
		b = append(b, post...)
	}
	binary.LittleEndian.PutUint32(b[len(frozenMagic)+12:], uint32(len(b)-records))
	return b
}

// sortFrozenPostings orders a term's postings by document number.
func sortFrozenPostings(ps []frozenPosting) {
	if !slices.IsSortedFunc(ps, cmpFrozenPosting) {
		slices.SortFunc(ps, cmpFrozenPosting)
	}
}

func cmpFrozenPosting(a, b frozenPosting) int { return int(a.doc) - int(b.doc) }

// FrozenDamage reports how many out-of-bounds table entries, records and
// postings of loaded frozen data the index has refused (always 0 for data
// EncodeFrozen wrote).
func (ix *Index) FrozenDamage() int64 {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.damage + ix.base.damageCount()
}

func (f *frozen) damageCount() int64 {
	if f == nil {
		return 0
	}
	return f.damage.Load()
}

// LoadFrozen makes the empty index hold docs with the postings data
// encodes, as EncodeFrozen wrote them for the same documents in the same
// order, without tokenising any: docs[i] is data's document i. A nil
// document, a repeated one or one data marks unindexed is left out, so a
// later Rank indexes or scores it as any new document. The index keeps a
// view of data, which the caller never writes again.
//
// Bad data is ErrFrozenCorrupt and an index that has held documents
// ErrIndexNotEmpty; either way the index is unchanged.
func (ix *Index) LoadFrozen(docs []*memory.Document, data []byte) error {
	f, err := decodeFrozen(data, len(docs))
	if err != nil {
		return err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if len(ix.slots) != 0 || ix.base != nil {
		return ErrIndexNotEmpty
	}
	ix.install(f, docs)
	return nil
}

// install makes the empty index hold docs with f as its base: document i
// is slot i, of generation 0. The caller holds the lock.
func (ix *Index) install(f *frozen, docs []*memory.Document) {
	preps := make([]prepared, len(docs))
	ents := make([]entry, len(docs))
	ix.slots = make([]slot, len(docs))
	if len(ix.entries) == 0 {
		ix.entries = make(map[*memory.Document]*entry, len(docs)) // no rehashing on the way
	}
	for i, d := range docs {
		m := u32(f.meta, i)
		n := int(m & frozenCount)
		ix.total += n
		if _, dup := ix.entries[d]; d == nil || dup || m&frozenIndexed == 0 {
			// Its postings, if any, are stale from the start.
			ix.slots[i].gen = 1
			ix.free = append(ix.free, int32(i))
			ix.stale += n
			continue
		}
		p := &preps[i]
		p.postings = n
		if m&frozenUsage != 0 {
			// Rare (a usage-only note): the filter's text is rebuilt
			// rather than stored.
			text := normalizedText(d)
			p.noiseText, p.usageOnly = text.usageOnly()
		}
		ix.slots[i].prep = p
		ents[i].slot = int32(i)
		ix.entries[d] = &ents[i]
	}
	ix.base = f
}

// Freeze re-lays the postings of docs out as a frozen base (the layout a
// snapshot carries, see LoadFrozen) and drops the index's term map and
// posting lists: the same answers from a fraction of the memory
// (docs/decisions/0122-frozen-after-warm-up.md). Documents the index does
// not hold are indexed first; documents it holds that are not in docs are
// laid out too, after them (evicting is Rank's business), so that freezing
// part of a tree never makes the rest be tokenised again. An engine calls
// it as its warm-up indexes the tree. It reports whether it laid
// anything out (false when every posting was in the base already).
func (ix *Index) Freeze(docs []*memory.Document) bool {
	ix.Warm(docs)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.base != nil && len(ix.lists) == 0 && ix.stale == 0 {
		// Everything is in the base already (an index loaded from a
		// snapshot, or frozen since): Warm added nothing, nothing to lay
		// out again.
		return false
	}
	in := make(map[*memory.Document]bool, len(docs))
	for _, d := range docs {
		in[d] = true
	}
	all := append([]*memory.Document(nil), docs...)
	for _, d := range ix.held() {
		if !in[d] {
			all = append(all, d)
		}
	}
	return ix.freezeLocked(all)
}

// held lists the documents the index holds, by slot. The caller holds the
// lock.
func (ix *Index) held() []*memory.Document {
	bySlot := make([]*memory.Document, len(ix.slots))
	for d, e := range ix.entries {
		bySlot[e.slot] = d
	}
	docs := bySlot[:0]
	for _, d := range bySlot {
		if d != nil {
			docs = append(docs, d)
		}
	}
	return docs
}

// freezeLocked is Freeze with the lock held and docs indexed.
func (ix *Index) freezeLocked(docs []*memory.Document) bool {
	f, err := decodeFrozen(encodeFrozen(ix.collectFrozen(docs)), len(docs))
	if err != nil {
		return false // cannot happen: keep the index as it is
	}
	ix.damage += ix.base.damageCount()
	ix.entries = make(map[*memory.Document]*entry, len(docs))
	ix.terms = make(map[string]int32)
	ix.lists, ix.slots, ix.free, ix.base = nil, nil, nil, nil
	ix.stale, ix.total, ix.refreeze = 0, 0, false
	ix.install(f, docs)
	return true
}

// refreezeIfDue freezes the index again, over every document it holds,
// when evictions have left more stale postings than live ones since the
// base was laid out (see evictUnseen). It runs at the end of Rank, with the
// lock held, once no slot number of the call is needed any more.
func (ix *Index) refreezeIfDue() {
	if !ix.refreeze {
		return
	}
	ix.freezeLocked(ix.held())
}

// EncodeFrozen returns the postings of docs in the layout LoadFrozen
// reads, docs[i] being document i; documents the index does not hold yet
// are indexed first. It holds the index's lock while it copies the
// postings out (Rank waits meanwhile); the layout is built after.
func (ix *Index) EncodeFrozen(docs []*memory.Document) []byte {
	ix.Warm(docs)
	ix.mu.Lock()
	meta, terms := ix.collectFrozen(docs)
	ix.mu.Unlock()
	return encodeFrozen(meta, terms)
}

// collectFrozen indexes the documents of docs the index does not hold and
// copies out their meta words and postings, document i being docs[i]. The
// caller holds the lock; the terms' postings may still need sorting
// (encodeFrozen does it).
func (ix *Index) collectFrozen(docs []*memory.Document) ([]uint32, []frozenTerm) {
	meta := make([]uint32, len(docs))
	for _, d := range docs {
		if _, ok := ix.entries[d]; d != nil && !ok {
			ix.add(d) // evicted since Warm
		}
	}
	ordOf := make([]int32, len(ix.slots))
	for i := range ordOf {
		ordOf[i] = -1
	}
	for i, d := range docs {
		e, ok := ix.entries[d]
		if !ok || ordOf[e.slot] >= 0 {
			continue // nil, or a repeat: left unindexed
		}
		ordOf[e.slot] = int32(i)
		p := ix.slots[e.slot].prep
		meta[i] = frozenIndexed | uint32(p.postings)
		if p.usageOnly {
			meta[i] |= frozenUsage
		}
	}
	type span struct {
		key        string
		start, end int
	}
	nterms := len(ix.terms)
	if ix.base != nil {
		nterms += ix.base.terms
	}
	spans := make([]span, 0, nterms)
	// Every posting laid out belongs to one of docs, whose meta words
	// count them: size the buffer once, since growing a slice of millions
	// of postings copies and faults in its pages several times over.
	total := 0
	for _, m := range meta {
		total += int(m & frozenCount)
	}
	all := make([]frozenPosting, 0, total)
	live := func(key string) {
		id, ok := ix.terms[key]
		if !ok {
			return
		}
		for _, p := range ix.lists[id] {
			if ix.slots[p.slot].gen == p.gen && ordOf[p.slot] >= 0 {
				all = append(all, frozenPosting{ordOf[p.slot], p.mask})
			}
		}
	}
	if f := ix.base; f != nil {
		f.each(func(k, p []byte) {
			start := len(all)
			f.postings(p, func(doc int32, m field) {
				if ix.slots[doc].gen == 0 && ordOf[doc] >= 0 {
					all = append(all, frozenPosting{ordOf[doc], m})
				}
			})
			key := string(k)
			live(key)
			if len(all) > start {
				spans = append(spans, span{key, start, len(all)})
			}
		})
	}
	for key := range ix.terms {
		if ix.base.find(key) != nil {
			continue // merged above
		}
		start := len(all)
		live(key)
		if len(all) > start {
			spans = append(spans, span{key, start, len(all)})
		}
	}
	terms := make([]frozenTerm, len(spans))
	for i, s := range spans {
		terms[i] = frozenTerm{s.key, all[s.start:s.end]}
	}
	return meta, terms
}
