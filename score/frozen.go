package score

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math/bits"
	"slices"
	"sync/atomic"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// A frozen index is the postings of a fixed list of documents laid out in
// one flat byte slice, so that it can be written into a snapshot and used
// by a fresh process as it is: loading it costs a look at its header and a
// slot per document, not a tokenisation per document nor a map insertion
// per key (docs/decisions/0121-frozen-index.md). It is also a warm
// engine's resident index (0122), so its size is the engine's memory
// (0125).
//
// Layout, integers little-endian:
//
//	magic     8 bytes, frozenMagic
//	header    6 × u32: documents, terms, table slots (a power of two),
//	          record bytes, grams, gram bytes
//	meta      documents × u32: the document's posting count, | frozenUsage
//	          when the noise filter's usage-only half holds, | frozenIndexed
//	          when the document is indexed at all
//	table     slots × u32: 0 for empty, else 1 + the offset of a term's
//	          record; open addressing by frozenHash of the key, linear probing
//	records   per term: uvarint key length, key, uvarint postings length,
//	          postings
//
// and, when grams > 0, the terms that are a pair of three-byte UTF-8
// characters (CJK bigrams: most keys of Chinese, Japanese and Korean text;
// see gramKey), which the table and records above never hold:
//
//	buckets   (frozenBuckets + 1) × u32: the grams whose key >> 20 is b
//	          are grams bucket[b] to bucket[b+1]−1
//	keys      grams × u32: the gram keys, increasing
//	marks     ⌈grams / frozenStride⌉ × u32: the offset in the gram lists of
//	          the list of gram i × frozenStride
//	lists     gram bytes: per gram, in key order: uvarint postings length,
//	          postings
//
// A gram costs about 5 bytes besides its postings, against 15 for a term
// in the table and records (key, two lengths, a table slot at the table's
// load): at 10,000 Chinese topics that is most of the index.
//
// Postings, in both parts, are by increasing document number: per
// posting, the uvarint of gap << 1 | explicit, gap being the distance to
// the previous document less one (the first: the document number), then,
// when explicit is set, the field mask byte; without it the mask is
// fieldBody (nine postings in ten).
//
// Only the header and the meta words are checked when the data is loaded;
// a table entry, a record, a bucket, a mark and a posting are checked
// where they are read, and anything out of bounds is dropped and counted
// (Index.FrozenDamage), never trusted: a lookup is bounded by the table's
// size or the bucket, a record or list by the data, a document number by
// the documents. A snapshot's checksum makes such damage the deliberate act
// of the file's owner, so the cost of a full check at every start is not
// paid for it.
type frozen struct {
	docs    int
	terms   int
	mask    uint32 // table slots − 1
	meta    []byte // documents × u32
	table   []byte // slots × u32
	records []byte
	// The gram part: grams keys, buckets, marks and lists as laid out.
	grams   int
	buckets []byte
	keys    []byte
	marks   []byte
	lists   []byte
	// damage counts what reading refused. Readers hold the index's lock;
	// the count is atomic so that it stays sound for any other reader.
	damage atomic.Int64
}

// frozenMagic opens an encoded frozen index; its last byte is the layout's
// version.
const frozenMagic = "mrfrozn\x03"

const (
	frozenHeader  = len(frozenMagic) + 6*4
	frozenUsage   = 1 << 31
	frozenIndexed = 1 << 30
	frozenCount   = 1<<30 - 1
	// frozenBuckets is the number of gram buckets (a gram's key >> 20, its
	// first character's top twelve bits).
	frozenBuckets = 1 << 12
	// frozenStride is how many gram lists one mark spans: a lookup skips
	// at most frozenStride−1 lists, a few bytes each, to reach its own.
	frozenStride = 16
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

// gramKey reports whether key is a gram, two characters of three UTF-8
// bytes each (U+0800 to U+FFFF: Han, kana, Hangul, ...), and if so its
// key: the first character's code point << 16 | the second's. The mapping
// is one to one, so appendGram gives the key back.
func gramKey(key string) (uint32, bool) {
	if len(key) != 6 || key[0] < 0xE0 || key[0] > 0xEF || key[3] < 0xE0 || key[3] > 0xEF {
		return 0, false
	}
	a, n := utf8.DecodeRuneInString(key)
	if n != 3 {
		return 0, false
	}
	b, n := utf8.DecodeRuneInString(key[3:])
	if n != 3 {
		return 0, false
	}
	return uint32(a)<<16 | uint32(b), true
}

// appendGram appends the key of gram k to dst.
func appendGram(dst []byte, k uint32) []byte {
	return utf8.AppendRune(utf8.AppendRune(dst, rune(k>>16)), rune(k&0xFFFF))
}

// posting decodes the posting at the head of p (not empty), which follows
// document prev (−1 before a term's first): its document, its field mask
// and its length in bytes, or n == 0 when it does not fit the data or
// names a document past the last. Every reader of postings decodes
// through it, so there is one decoder to check.
func (f *frozen) posting(p []byte, prev int64) (doc int64, m field, n int) {
	v, n := uint64(p[0]), 1
	if v >= 0x80 {
		if v, n = binary.Uvarint(p); n <= 0 {
			return 0, 0, 0
		}
	}
	doc = prev + int64(v>>1) + 1
	if v>>1 >= uint64(f.docs) || doc >= int64(f.docs) {
		return 0, 0, 0
	}
	if v&1 == 0 {
		return doc, fieldBody, n
	}
	if n >= len(p) || p[n] == 0 {
		return 0, 0, 0
	}
	return doc, field(p[n]), n + 1
}

// appendPosting appends the posting of document doc with mask m after
// document prev, as posting reads it.
func appendPosting(dst []byte, prev, doc int32, m field) []byte {
	v := uint64(doc-prev-1) << 1
	if m != fieldBody {
		return append(binary.AppendUvarint(dst, v|1), byte(m))
	}
	return binary.AppendUvarint(dst, v)
}

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

// list reads the gram list at off of the lists: its postings and the
// offset of the next list; ok is false when it does not fit the data.
func (f *frozen) list(off int) (postings []byte, next int, ok bool) {
	l := f.lists
	if off < 0 || off >= len(l) {
		return nil, 0, false
	}
	pl, n := binary.Uvarint(l[off:])
	if n <= 0 || pl > uint64(len(l)-off-n) {
		return nil, 0, false
	}
	off += n
	return l[off : off+int(pl)], off + int(pl), true
}

// find returns the postings of key, or nil when the index has no such
// term (a term it has may have no postings: an empty slice).
func (f *frozen) find(key string) []byte {
	if f == nil {
		return nil
	}
	if k, ok := gramKey(key); ok {
		return f.findGram(k)
	}
	if f.terms == 0 {
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

// findGram returns the postings of gram k, or nil.
func (f *frozen) findGram(k uint32) []byte {
	if f.grams == 0 {
		return nil
	}
	b := int(k >> 20)
	lo, hi := int(u32(f.buckets, b)), int(u32(f.buckets, b+1))
	if lo > hi || hi > f.grams {
		f.damage.Add(1)
		return nil
	}
	end := hi
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if u32(f.keys, mid) < k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo >= end || u32(f.keys, lo) != k {
		return nil
	}
	off := int(u32(f.marks, lo/frozenStride))
	for skip := lo % frozenStride; ; skip-- {
		p, next, ok := f.list(off)
		if !ok {
			f.damage.Add(1)
			return nil
		}
		if skip == 0 {
			return p
		}
		off = next
	}
}

// each calls fn with every term's key and postings, the table's terms in
// record order then the grams in key order, until a record or list does
// not fit the data; gram is a gram's key (gramKey), 0 for a table term.
// The key is only valid during the call.
func (f *frozen) each(fn func(key []byte, gram uint32, postings []byte)) {
	for off := 0; off < len(f.records); {
		k, p, next, ok := f.record(off)
		if !ok {
			f.damage.Add(1)
			return
		}
		fn(k, 0, p)
		off = next
	}
	var key []byte
	for i, off := 0, 0; i < f.grams; i++ {
		p, next, ok := f.list(off)
		if !ok {
			f.damage.Add(1)
			return
		}
		k := u32(f.keys, i)
		key = appendGram(key[:0], k)
		fn(key, k, p)
		off = next
	}
}

// postings calls fn with each posting of p, a term's postings as find
// returns them, until one is out of bounds.
func (f *frozen) postings(p []byte, fn func(doc int32, m field)) {
	for doc := int64(-1); len(p) > 0; {
		d, m, n := f.posting(p, doc)
		if n == 0 {
			f.damage.Add(1)
			return
		}
		fn(int32(d), m)
		doc, p = d, p[n:]
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
	nd, nt, ns, nr, ng, gb := u32(h, 0), u32(h, 1), u32(h, 2), u32(h, 3), u32(h, 4), u32(h, 5)
	if int64(nd) != int64(docs) {
		return bad("document count")
	}
	if ns == 0 || ns&(ns-1) != 0 || uint64(ns) <= uint64(nt) {
		return bad("table size")
	}
	nm := (uint64(ng) + frozenStride - 1) / frozenStride
	grams := uint64(0)
	if ng > 0 {
		grams = 4*(frozenBuckets+1) + 4*uint64(ng) + 4*nm + uint64(gb)
	} else if gb != 0 {
		return bad("gram bytes")
	}
	if uint64(frozenHeader)+4*uint64(nd)+4*uint64(ns)+uint64(nr)+grams != uint64(len(data)) {
		return bad("length")
	}
	f := viewFrozen(data)
	for d := range int(nd) {
		if m := u32(f.meta, d); m&frozenIndexed == 0 && m != 0 {
			return bad("document")
		}
	}
	return f, nil
}

// viewFrozen returns the frozen index data holds, sharing its memory,
// without checking anything: data is either what encodeFrozen has just
// written (freezeLocked) or has passed decodeFrozen's checks.
func viewFrozen(data []byte) *frozen {
	h := data[len(frozenMagic):]
	nd, nt, ns, nr, ng := u32(h, 0), u32(h, 1), u32(h, 2), u32(h, 3), u32(h, 4)
	nm := (ng + frozenStride - 1) / frozenStride
	f := &frozen{docs: int(nd), terms: int(nt), mask: ns - 1, grams: int(ng)}
	rest := data[frozenHeader:]
	f.meta, rest = rest[:4*nd:4*nd], rest[4*nd:]
	f.table, rest = rest[:4*ns:4*ns], rest[4*ns:]
	f.records, rest = rest[:nr:nr], rest[nr:]
	if ng > 0 {
		f.buckets, rest = rest[:4*(frozenBuckets+1):4*(frozenBuckets+1)], rest[4*(frozenBuckets+1):]
		f.keys, rest = rest[:4*ng:4*ng], rest[4*ng:]
		f.marks, f.lists = rest[:4*nm:4*nm], rest[4*nm:]
	}
	return f
}

// frozenPosting is one posting on its way into an encoding.
type frozenPosting struct {
	doc  int32
	mask field
}

// frozenTerm is one term on its way into an encoding: a gram (see
// gramKey) by its key gram, any other term by key.
type frozenTerm struct {
	key      string
	gram     uint32 // 0: not a gram
	postings []frozenPosting
}

// gramOf reports whether t is a gram, and its gram key.
func (t *frozenTerm) gramOf() (uint32, bool) {
	if t.gram != 0 {
		return t.gram, true
	}
	return gramKey(t.key)
}

// encodeFrozen lays out terms (keys distinct) over the documents of meta;
// it sorts each term's postings by document.
func encodeFrozen(meta []uint32, terms []frozenTerm) []byte {
	type gram struct {
		key  uint32
		term int32
	}
	var grams []gram
	nt := 0
	size := frozenHeader + 4*len(meta)
	// The buffer is sized exactly: it is the resident index, and its
	// capacity, not its length, is what the engine holds.
	for i := range terms {
		t := &terms[i]
		pl := postingsSize(t.postings)
		if k, ok := t.gramOf(); ok {
			grams = append(grams, gram{k, int32(i)})
			size += 4 + uvarintLen(uint64(pl)) + pl
		} else {
			nt++
			size += uvarintLen(uint64(len(t.key))) + len(t.key) + uvarintLen(uint64(pl)) + pl
		}
	}
	ns := uint32(1)
	for uint64(ns) < uint64(nt)+uint64(nt)/4+1 { // load at most 0.8
		ns <<= 1
	}
	size += 4 * int(ns)
	nm := (len(grams) + frozenStride - 1) / frozenStride
	if len(grams) > 0 {
		size += 4 * (frozenBuckets + 1 + nm)
	}
	b := make([]byte, 0, size)
	b = append(b, frozenMagic...)
	for _, v := range [6]uint32{uint32(len(meta)), uint32(nt), ns, 0, uint32(len(grams)), 0} {
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
	for i := range terms {
		term := &terms[i]
		if _, ok := term.gramOf(); ok {
			continue
		}
		i := frozenHash(term.key) & mask
		for binary.LittleEndian.Uint32(b[table+4*int(i):]) != 0 {
			i = (i + 1) & mask
		}
		binary.LittleEndian.PutUint32(b[table+4*int(i):], uint32(len(b)-records+1))
		b = binary.AppendUvarint(b, uint64(len(term.key)))
		b = append(b, term.key...)
		post = appendPostings(post[:0], term.postings)
		b = binary.AppendUvarint(b, uint64(len(post)))
		b = append(b, post...)
	}
	binary.LittleEndian.PutUint32(b[len(frozenMagic)+12:], uint32(len(b)-records))
	if len(grams) == 0 {
		return b
	}
	slices.SortFunc(grams, func(x, y gram) int { return cmp.Compare(x.key, y.key) })
	var bucket [frozenBuckets + 1]uint32
	for _, g := range grams {
		bucket[g.key>>20+1]++
	}
	for i := 1; i <= frozenBuckets; i++ {
		bucket[i] += bucket[i-1]
	}
	for _, v := range bucket {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for _, g := range grams {
		b = binary.LittleEndian.AppendUint32(b, g.key)
	}
	marks := len(b)
	b = append(b, make([]byte, 4*nm)...)
	lists := len(b)
	for i, g := range grams {
		if i%frozenStride == 0 {
			binary.LittleEndian.PutUint32(b[marks+4*(i/frozenStride):], uint32(len(b)-lists))
		}
		post = appendPostings(post[:0], terms[g.term].postings)
		b = binary.AppendUvarint(b, uint64(len(post)))
		b = append(b, post...)
	}
	binary.LittleEndian.PutUint32(b[len(frozenMagic)+20:], uint32(len(b)-lists))
	return b
}

// postingsSize sorts ps by document and returns the length of their
// encoding (appendPostings).
func postingsSize(ps []frozenPosting) int {
	sortFrozenPostings(ps)
	n, prev := 0, int32(-1)
	for _, p := range ps {
		v := uint64(p.doc-prev-1) << 1
		if p.mask != fieldBody {
			v |= 1
			n++
		}
		n += uvarintLen(v)
		prev = p.doc
	}
	return n
}

// uvarintLen is the length of v's uvarint encoding.
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }

// appendPostings sorts ps by document and appends their encoding.
func appendPostings(dst []byte, ps []frozenPosting) []byte {
	sortFrozenPostings(ps)
	prev := int32(-1)
	for _, p := range ps {
		dst = appendPosting(dst, prev, p.doc, p.mask)
		prev = p.doc
	}
	return dst
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
// view of data, which the caller never writes again, and the documents,
// but neither keeps nor changes the slice docs: a snapshot loader passes
// the slice that may stand as its catalog's sorted result
// (memory.SnapshotExtra; TestPropFrozenEqualsNaive checks it is unchanged).
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
	ix.changes++
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
		ix.slots[i].postings = int32(n)
		if m&frozenUsage != 0 {
			// Rare (a usage-only note): the filter's text is rebuilt
			// rather than stored.
			text := normalizedText(d)
			if noise, usageOnly := text.usageOnly(); usageOnly {
				ix.slots[i].prep = &prepared{noiseText: noise}
			}
		}
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
// anything out (false when every posting was in the base already). Like
// EncodeFrozen it takes the lock only in short holds (decision 0836), so
// a query that ranks meanwhile answers from the index as it was.
func (ix *Index) Freeze(docs []*memory.Document) bool {
	return ix.freeze(docs, nil)
}

// freeze is Freeze with the copies' account kept in st, when not nil
// (whose between also runs before the hold that puts the new base in
// place).
func (ix *Index) freeze(docs []*memory.Document, st *copyStats) bool {
	ix.Warm(docs)
	due := func() bool { return !ix.frozenWhole() }
	// The set of docs is made only when a base is laid out: an index
	// loaded whole from a snapshot, which a fresh engine's warm-up
	// freezes, is not due, and the set was a map of every document made
	// for nothing (decision 0841).
	var in map[*memory.Document]bool
	list := func(held []*memory.Document) []*memory.Document {
		if in == nil {
			in = make(map[*memory.Document]bool, len(docs))
			for _, d := range docs {
				in[d] = true
			}
		}
		return freezeList(docs, in, held)
	}
	return ix.layOut(due, list, st)
}

// layOut lays the documents list returns for the documents the index
// holds out as the index's new base when due reports true, and reports
// whether it did; due runs with the lock held, list without it. As
// EncodeFrozen, it copies the index in short holds and lays
// the base out without the lock, and puts it in place in one short hold
// if the index has not changed since the copy (decision 0836). After
// maxCopyTries changes it lays the base out in one hold, as before.
func (ix *Index) layOut(due func() bool, list func(held []*memory.Document) []*memory.Document, st *copyStats) bool {
	for range maxCopyTries {
		ix.mu.Lock()
		h := st.start()
		if !due() {
			h.stop()
			ix.mu.Unlock()
			return false
		}
		before := ix.changes
		w := ix.newHeldWalk()
		h.stop()
		ix.mu.Unlock()
		held, ok := w.run(before, st)
		if !ok {
			continue // the index changed during the walk
		}
		all := list(held)
		// One try: a copy that had to start again was made after a
		// change, so the list is out of date too.
		c, at, ok := ix.tryCopy(all, nil, st)
		if !ok || at != before {
			continue // the list may be out of date
		}
		// The new base and its slots, built aside without the lock.
		next := aside(viewFrozen(encodeFrozen(c.collect())), all)
		if st != nil && st.between != nil {
			st.between()
		}
		ix.mu.Lock()
		h = st.start()
		if ix.changes == at {
			ix.adopt(next)
			h.stop()
			ix.mu.Unlock()
			return true
		}
		h.stop()
		ix.mu.Unlock()
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if !due() {
		return false
	}
	ix.freezeLocked(list(ix.held()))
	return true
}

// frozenWhole reports whether every posting is in the base already (an
// index loaded from a snapshot, or frozen since, that Warm added nothing
// to): nothing to lay out again. The caller holds the lock.
func (ix *Index) frozenWhole() bool {
	return ix.base != nil && len(ix.lists) == 0 && ix.stale == 0
}

// freezeList is what Freeze lays out: docs, then the documents of held
// (those the index holds) that are not in docs (in).
func freezeList(docs []*memory.Document, in map[*memory.Document]bool, held []*memory.Document) []*memory.Document {
	all := append([]*memory.Document(nil), docs...)
	for _, d := range held {
		if !in[d] {
			all = append(all, d)
		}
	}
	return all
}

// adopt makes the index hold what next, an index that install has just
// made from a base laid out from this index's present state, holds. It
// is the one place that knows what a new base replaces and resets (the
// entries, slots, free list, base, stale and total counts from next; the
// term map, lists and refreeze emptied); layOut comes here with next built
// without the lock, freezeLocked with next built in its hold. The caller
// holds the lock.
func (ix *Index) adopt(next *Index) {
	ix.changes++
	ix.damage += ix.base.damageCount()
	ix.entries, ix.slots, ix.free, ix.base = next.entries, next.slots, next.free, next.base
	ix.stale, ix.total = next.stale, next.total
	ix.terms = make(map[string]int32)
	ix.lists, ix.refreeze = nil, false
}

// aside is a new index that install has made hold docs with f as its
// base, for adopt: nothing else sees it.
func aside(f *frozen, docs []*memory.Document) *Index {
	next := &Index{entries: make(map[*memory.Document]*entry, len(docs))}
	next.install(f, docs)
	return next
}

// held lists the documents the index holds, by slot. The caller holds the
// lock.
func (ix *Index) held() []*memory.Document {
	bySlot := make([]*memory.Document, len(ix.slots))
	for d, e := range ix.entries {
		bySlot[e.slot] = d
	}
	return bySlotList(bySlot)
}

// bySlotList is bySlot without its empty slots, in its own array.
func bySlotList(bySlot []*memory.Document) []*memory.Document {
	docs := bySlot[:0]
	for _, d := range bySlot {
		if d != nil {
			docs = append(docs, d)
		}
	}
	return docs
}

// heldWalk is held in short holds, for layOut: a walk of the document
// map, chunk/8 entries a hold (the copy's document look-ups, decision
// 0836). At 10,000 documents the whole walk in one hold took 2.0–2.6 ms
// of CPU here, above the 2 ms a hold aims at (BenchmarkFreezeLockHold).
type heldWalk struct {
	ix *Index
	// slots is the index's slot count when the walk began; bySlot, made
	// at that length without the lock, gets each document at its slot.
	slots  int
	bySlot []*memory.Document
	next   func() (struct{}, bool)
	stop   func()
}

// newHeldWalk starts the walk of the index's present documents; the
// caller holds the lock. Like the copier's walk of the term map, it is
// resumed only with the lock held and the index unchanged since it began,
// so the map it walks, and the slots bySlot is sized by, have not been
// written between its chunks.
func (ix *Index) newHeldWalk() *heldWalk {
	w := &heldWalk{ix: ix, slots: len(ix.slots)}
	entries, chunk := ix.entries, max(ix.encodeChunk/8, 1)
	w.next, w.stop = iter.Pull(func(yield func(struct{}) bool) {
		n := 0
		for d, e := range entries {
			w.bySlot[e.slot] = d
			if n++; n == chunk {
				n = 0
				if !yield(struct{}{}) {
					return
				}
			}
		}
	})
	return w
}

// run takes the walk's holds and returns the documents by slot, or false
// when the index changed from before between two holds (the walk is then
// stopped under the lock). st and its between are as for the copy.
func (w *heldWalk) run(before uint64, st *copyStats) ([]*memory.Document, bool) {
	defer w.stop()
	w.bySlot = make([]*memory.Document, w.slots)
	ok := w.ix.inHolds(before, st, w.stop, func() (done, ok bool) {
		_, more := w.next()
		return !more, true
	})
	if !ok {
		return nil, false
	}
	return bySlotList(w.bySlot), true
}

// freezeLocked is Freeze with the lock held and docs indexed.
// The bytes are its own encoding, just made: it views them without
// decodeFrozen's checks, which are for bytes read from outside (a
// snapshot).
func (ix *Index) freezeLocked(docs []*memory.Document) {
	f := viewFrozen(encodeFrozen(ix.copyFrozenLocked(docs, nil, true).collect()))
	ix.adopt(aside(f, docs))
}

// Relayout lays the index out again, over every document it holds, when
// evictions have left more stale postings than live ones since its base
// was laid out (see evictUnseen), and reports whether it did. Rank never
// does it, so that no query pays for laying out the whole index: a host
// that ranks a changing tree calls Relayout once it has its answer,
// whenever RelayoutDue reports true (the engine does, beside the rest of
// the plan; decisions 0125 and 0906). Until then the index answers as
// before and keeps the evicted documents' postings. It takes the lock
// only in short holds, as Freeze does.
func (ix *Index) Relayout() bool {
	same := func(held []*memory.Document) []*memory.Document { return held }
	return ix.layOut(func() bool { return ix.refreeze }, same, nil)
}

// RelayoutDue reports whether a Relayout would lay the index out.
func (ix *Index) RelayoutDue() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.refreeze
}

// EncodeFrozen returns the postings of docs in the layout LoadFrozen
// reads, docs[i] being document i; documents the index does not hold yet
// are indexed first (Warm's chunks). It never holds the index's lock for
// long (decision 0836): it copies what the encoding needs in short holds
// (512 documents, 4,096 terms or 16,384 list headers each; the longest
// took 0.03–1.32 ms of CPU here, BenchmarkEncodeFrozenLockHold), and lays the postings out after the last, without the lock. The
// encoding is that of one state of the index: when the index changed
// between two holds, the copy starts again, and after a few such starts
// it is made in one hold. The frozen base and the part of each live
// posting list that the copy saw do not change after it, so the postings
// are read from them without the lock.
func (ix *Index) EncodeFrozen(docs []*memory.Document) []byte {
	return ix.encodeCopied(docs, nil)
}

// encodeCopied is EncodeFrozen with the copy's account kept in st, when
// not nil.
func (ix *Index) encodeCopied(docs []*memory.Document, st *copyStats) []byte {
	ix.Warm(docs)
	c, _ := ix.copyFrozen(docs, st)
	return encodeFrozen(c.collect())
}
