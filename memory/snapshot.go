package memory

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unsafe"
)

// A snapshot is the catalog's parsed documents and the file keys they were
// read under, persisted so that a fresh process on an unchanged tree pays
// a directory walk and a stat per file instead of a read and a parse per
// file (docs/decisions/0120-snapshot.md). It is a cache and nothing more:
// a seeded entry is used only for a file the walk lists now whose stat
// matches the key exactly, as the in-process cache is; anything wrong with
// the file makes the catalog ignore it (counted) and rebuild it.

// snapshotFormat is the version of the encoding; a snapshot of another
// version is ignored. 2: the path is rebuilt from the root and the
// relative path instead of stored, and the caller's extra data
// (WithSnapshot's SnapshotExtra) follows the records. 3: the checksum is
// CRC-32 (IEEE), not CRC-32C (snapshotSum).
const snapshotFormat = 3

// snapshotMagic opens every snapshot file.
const snapshotMagic = "memrsnap"

// maxSnapshotBytes bounds the file the loader reads: 64 topics of
// ReadLimit bytes per MiB, far past any real tree.
const maxSnapshotBytes = 1 << 30

// Errors a snapshot is ignored for; SnapshotStats counts them.
var (
	// ErrSnapshotCorrupt: truncated, a bad checksum, or a record that does
	// not decode.
	ErrSnapshotCorrupt = errors.New("memory: snapshot corrupt")
	// ErrSnapshotVersion: another format, Unicode or caller (scorer)
	// version.
	ErrSnapshotVersion = errors.New("memory: snapshot of another version")
	// ErrSnapshotForeign: written for other roots.
	ErrSnapshotForeign = errors.New("memory: snapshot of other roots")
	// ErrSnapshotUnsafe: not a regular file of this user with mode 0600 or
	// stricter, or too large.
	ErrSnapshotUnsafe = errors.New("memory: snapshot file unsafe")
)

// SnapshotStats counts what a catalog did with its snapshot file.
type SnapshotStats struct {
	// Loaded is the number of documents seeded from the snapshot.
	Loaded int
	// Ignored counts snapshot files that existed but were not used
	// (corrupt, foreign version or roots, unsafe); Missing those that did
	// not exist yet.
	Ignored, Missing int
	// Written counts snapshots written; WriteErrors failed writes.
	Written, WriteErrors int
	// ExtraIgnored counts loaded snapshots whose extra data the
	// SnapshotExtra refused (its documents were seeded all the same).
	ExtraIgnored int
}

// SnapshotExtra is data a caller derives from the documents and keeps in
// the snapshot beside them: the engine's index postings, so that a fresh
// process does not tokenise an unchanged tree again. The catalog stores
// it as opaque bytes under the snapshot's checksum and tag.
type SnapshotExtra interface {
	// EncodeSnapshot returns the data for docs, in the order the snapshot
	// stores them. It runs on the snapshot writer's goroutine.
	EncodeSnapshot(docs []*Document) []byte
	// LoadSnapshot receives the documents seeded from a snapshot, in the
	// stored order, and the data EncodeSnapshot returned for them; data is
	// a view of the loaded file that is never written again. docs is the
	// catalog's own slice, which may become its first scan's result: it
	// reads it and neither keeps nor changes the slice (it may keep the
	// documents themselves). It runs once,
	// on a goroutine of its own while the first scan walks the tree, and
	// returns before that scan's result exists, so before any scan result
	// holds the documents. A returned error is counted in
	// SnapshotStats.ExtraIgnored; the documents stay seeded.
	LoadSnapshot(docs []*Document, data []byte) error
}

// WithSnapshot makes the catalog seed itself from the snapshot file path
// before its first scan and write the file again, in the background, after
// a scan that read or removed files. tag names the caller's version of
// everything derived from the documents (the scorer version): a snapshot
// written under another tag is ignored. extra, when not nil, adds the
// caller's data to each snapshot and gets it back on load. Empty path: no
// snapshot. The catalog's Roots.PlainProject is part of the tag as well as
// of SnapshotPath, so a snapshot written with one reading of the project
// root is never trusted under the other.
func WithSnapshot(path, tag string, extra SnapshotExtra) Option {
	return func(c *Catalog) {
		if path != "" {
			if c.roots.PlainProject {
				tag += " plain-project"
			}
			c.snap = &snapshotState{path: path, tag: tag, extra: extra}
		}
	}
}

// SnapshotPath is the snapshot file of roots in dir: one file per pair of
// roots, named by a hash of their absolute paths (and of PlainProject).
func SnapshotPath(dir string, roots Roots) string {
	h := sha256.New()
	for _, r := range absRoots(roots) {
		h.Write([]byte(r))
		h.Write([]byte{0})
	}
	if roots.PlainProject {
		// Another reading of the same files: another snapshot.
		h.Write([]byte("plain-project"))
	}
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil)[:12])+".snap")
}

// snapshotState is a catalog's snapshot bookkeeping.
type snapshotState struct {
	path, tag string
	extra     SnapshotExtra // nil: none
	loaded    bool          // the scan goroutine's: the file was tried once

	mu      sync.Mutex
	stats   SnapshotStats
	stale   bool        // the loaded file's extra part was refused: write it anew
	pending *snapSource // the newest scan's files not yet written; nil: none
	writing bool
	// done is closed, and set to nil, when the running writer stops; a
	// writer's start makes it. Not a sync.WaitGroup: the writes of a
	// corpus that daemon sessions share are queued by one session's scan
	// while another session's Shutdown waits, an Add from zero beside a
	// Wait, which a WaitGroup forbids (decision 0120).
	done chan struct{}
}

// snapRecord is one document of a snapshot with its file key. path is
// not stored: it is the root joined with rel, as the walk makes it.
type snapRecord struct {
	scope     Scope
	path, rel string
	key       fileKey
	typ       Type
	truncated bool
	// skipped records a file whose content the scan skips (skip is why,
	// one of the content reasons: SkipBinary and after); it has no
	// document, and typ and the strings are zero.
	skipped bool
	skip    SkipReason
	title   string
	desc    string
	body    string
	doc     *Document // the writer's: the document the record holds
}

// SnapshotStats reports what the catalog did with its snapshot.
func (c *Catalog) SnapshotStats() SnapshotStats {
	if c.snap == nil {
		return SnapshotStats{}
	}
	c.snap.mu.Lock()
	defer c.snap.mu.Unlock()
	return c.snap.stats
}

// WaitSnapshot waits until no snapshot write is under way. A host calls it
// before exiting so the last scan's snapshot is on disk.
func (c *Catalog) WaitSnapshot() {
	if c.snap == nil {
		return
	}
	c.snap.mu.Lock()
	done := c.snap.done
	c.snap.mu.Unlock()
	if done != nil {
		<-done
	}
}

// absRoots returns the roots made absolute as the walk makes them; a root
// that cannot be made absolute is kept as given.
func absRoots(roots Roots) [2]string {
	var out [2]string
	for i, r := range []string{roots.Project, roots.User} {
		if r == "" {
			continue
		}
		out[i] = r
		if abs, err := filepath.Abs(r); err == nil {
			out[i] = abs
		}
	}
	return out
}

// snapLoad is a catalog's snapshot load under way (startSnapshotLoad).
type snapLoad struct {
	done   chan struct{}
	seed   scopeCache
	sorted []*Document
	// seeds is true until the load has ended with nothing to seed (no
	// file, or one ignored): the walk and the scan stat the files they
	// know nothing of only while it is true, for the seeded entries
	// matched after the walk. A cold tree without a usable snapshot then
	// costs what it costs without a snapshot directory: a read per file,
	// its stat taken from the open file. Stats taken before it turned
	// false are used all the same; any interleaving gives the same
	// result, only the number of stats differs.
	seeds atomic.Bool
	// files is the number of files the snapshot says it holds, read
	// from the file's first bytes before the rest is read or checked
	// (snapshotFiles), for the walk beside it to size its array of jobs
	// once (walker.files, decision 0838); 0 until then, and for good
	// when the header is not this catalog's or the count is implausible
	// for the file's size.
	files atomic.Int64
}

// startSnapshotLoad starts reading the snapshot file, once per catalog,
// on its own goroutine, so that the first scan lists and stats the tree
// while the file is read, checked and decoded (decision 0803). It returns
// nil when there is nothing to load; otherwise the scan calls the
// returned load's wait, on the scan goroutine, before it looks at its
// cache: that waits for the load and seeds the cache with what it decoded.
func (c *Catalog) startSnapshotLoad() *snapLoad {
	s := c.snap
	if s == nil || s.loaded {
		return nil
	}
	s.loaded = true
	ld := &snapLoad{done: make(chan struct{})}
	ld.seeds.Store(true)
	go func() {
		defer close(ld.done)
		ld.seed, ld.sorted = c.loadSnapshot(&ld.files)
		if ld.seed.len() == 0 {
			ld.seeds.Store(false)
		}
	}()
	return ld
}

// wait waits for the load and seeds c's cache with it. Only a catalog's
// first scan loads, and it has put nothing in the cache yet (it walks
// with a cache of its own): the decoded entries are the cache. The stored
// documents, when they came in the result's order, stand as the last
// sorted result: a scan that finds every one of them unchanged and
// nothing else returns them without sorting again (decision 0805). The
// scan's own check decides that, as after any of its scans: a changed,
// new or missing file makes it sort what it found.
func (ld *snapLoad) wait(c *Catalog) {
	<-ld.done
	c.cache = ld.seed
	if ld.sorted != nil {
		c.prev = ld.sorted
	}
}

// loadSnapshot reads the snapshot file and returns its entries as a cache
// of their own (nil maps when there is none, or it is ignored); the
// caller seeds the catalog's cache with them. sorted is the stored
// documents (the slice the extra loader saw) when they are in the order
// of a scan's result (compareDocs), as the writer stores them; nil
// otherwise. It touches
// nothing of the catalog but the snapshot's stats (under their lock), so
// it can run while the scan walks the tree. files, when not nil, gets the
// number of files the snapshot says it holds as soon as the file's first
// bytes are read (snapshotFiles), for the walk to size its jobs by.
func (c *Catalog) loadSnapshot(files *atomic.Int64) (seed scopeCache, sorted []*Document) {
	s := c.snap
	roots := absRoots(c.roots)
	var head func([]byte, int64)
	if files != nil {
		head = func(b []byte, size int64) {
			if n, ok := snapshotFiles(b, size, s.tag, roots); ok {
				files.Store(int64(n))
			}
		}
	}
	data, err := readSnapshotFile(s.path, head)
	if errors.Is(err, os.ErrNotExist) {
		s.mu.Lock()
		s.stats.Missing++
		s.mu.Unlock()
		return seed, nil
	}
	// The records go straight into the documents and entries the cache
	// keeps (decision 0806): no array of records between them. A
	// skipped file's Document stays unused but for its Scope.
	var docs []Document
	var entries []entry
	var extra []byte
	if err == nil {
		extra, err = decodeRecords(data, s.tag, roots,
			func(n int) {
				docs = make([]Document, n)
				entries = make([]entry, n)
				// Mapped in one call each, not a fault per page as the
				// records are written into them (decision 0830).
				prefaultSlice(docs)
				prefaultSlice(entries)
			},
			func(i int, r *snapRecord) {
				if r.skipped {
					docs[i].Scope = r.scope
					entries[i] = entry{rel: r.rel, key: r.key, skip: r.skip, skipped: true}
					return
				}
				docs[i] = Document{
					Scope: r.scope, RelPath: r.rel, Type: r.typ,
					Title: r.title, Description: r.desc, Body: r.body, BodyTruncated: r.truncated,
					Modified: r.key.modified(), Size: r.key.size,
				}
				entries[i] = entry{rel: r.rel, key: r.key, doc: &docs[i]}
			})
	}
	if err != nil {
		s.mu.Lock()
		s.stats.Ignored++
		s.mu.Unlock()
		return seed, nil
	}
	joinPaths(roots, len(entries),
		func(i int) (Scope, string) { return docs[i].Scope, entries[i].rel },
		func(i int, path string) {
			entries[i].path = path
			docs[i].ID = ID(path)
		})
	ptrs := make([]*Document, 0, len(docs))
	var perScope [2]int
	for i := range docs {
		perScope[docs[i].Scope]++
	}
	for sc, n := range perScope {
		seed[sc] = make(map[string]*entry, n) // no rehashing on the way
	}
	for i := range entries {
		e := &entries[i]
		seed[docs[i].Scope][e.path] = e
		if !e.skipped {
			ptrs = append(ptrs, &docs[i])
		}
	}
	// No copy: the extra loader neither keeps nor changes ptrs
	// (SnapshotExtra), and a scan hands its callers copies of its result
	// (Scan, Last, Current), never the catalog's slice.
	if slices.IsSortedFunc(ptrs, compareDocs) {
		sorted = ptrs
	}
	extraErr := error(nil)
	if s.extra != nil {
		extraErr = s.extra.LoadSnapshot(ptrs, extra)
	}
	s.mu.Lock()
	s.stats.Loaded += len(ptrs)
	if extraErr != nil {
		s.stats.ExtraIgnored++
		s.stale = true
	}
	s.mu.Unlock()
	return seed, sorted
}

// takeStale reports, once, that the loaded snapshot's extra part was
// refused (another extra layout, or damage): the scan then writes the
// snapshot anew even if no file changed, or every later process would
// refuse the same part and rebuild it again.
func (s *snapshotState) takeStale() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	stale := s.stale
	s.stale = false
	return stale
}

// snapHeadBytes is how much of the snapshot's start readSnapshotFile
// reads first for its head callback: the magic, the checksum, the header,
// the two roots and the record count of any real snapshot (roots of up to
// about 2,000 bytes each).
const snapHeadBytes = 4 << 10

// readSnapshotFile reads the snapshot at path if it is a regular file of
// this user that no one else can read or write, and not too large. head,
// when not nil, is first given up to snapHeadBytes of the file's start
// and the file's size, read before the whole file's buffer is even
// allocated, so that what only needs the header (snapshotFiles) has it at
// once. Those bytes are not checked: the whole file's checksum cannot be
// until it is read.
func readSnapshotFile(path string, head func([]byte, int64)) ([]byte, error) {
	f, err := openNoFollow(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrSnapshotUnsafe, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSnapshotUnsafe, err)
	}
	if !fi.Mode().IsRegular() || !private(fi) || fi.Size() > maxSnapshotBytes {
		return nil, ErrSnapshotUnsafe
	}
	var pre []byte // the head, read once: the buffer takes it, and the rest from where it ends
	if head != nil {
		var b [snapHeadBytes]byte
		n, _ := io.ReadFull(f, b[:min(int64(len(b)), fi.Size())])
		pre = b[:n]
		head(pre, fi.Size())
	}
	data := newReadBuffer(int(fi.Size())) // its pages mapped up front, not one fault each
	if _, err := io.ReadFull(f, data[copy(data, pre):]); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSnapshotCorrupt, err)
	}
	return data, nil
}

// queueSnapshot hands the writer what the scan just found and starts the
// writer unless it is running; it runs on the scan goroutine after a scan
// that changed the cache, so it copies nothing (decision 0805): jobs and
// out are the scan's own arrays, which the scan allocated and the catalog
// never reads or writes again once the scan returns, and the writer turns
// them into records on its own goroutine (snapSource.records). A later
// scan, running while the writer does, writes its cache's entries and its
// own new arrays, never these; the Documents the outcomes point to are
// never written after the scan that made them. So what a write stores is
// the state of the scan that queued it.
func (c *Catalog) queueSnapshot(jobs []job, out []outcome) {
	s := c.snap
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = &snapSource{jobs: jobs, out: out}
	if s.writing {
		return // the running writer takes the newest records next
	}
	s.writing = true
	s.done = make(chan struct{})
	go c.writeSnapshots()
}

// snapSource is one scan's files as the snapshot writer takes them: the
// scan's jobs and its outcome for each (out[i] is jobs[i]'s), which is
// what the scan folded into the cache's entries. Read-only.
type snapSource struct {
	jobs []job
	out  []outcome
}

// records returns the records to store, in the order the snapshot stores
// them: the documents in the order of the scan's sorted result
// (compareDocs), so that the next process can take the loaded documents
// as its first result without sorting them (decision 0805), then the
// skipped files by path. Racy files are left out: the next process reads
// those files, as the next scan of this one does. So are files skipped
// for an I/O error; a file skipped for its content is kept, so that a
// tree with a bad file does not make every fresh process read it again
// and rewrite the snapshot. It runs on the writer's goroutine, off any
// query's path.
func (src *snapSource) records() []snapRecord {
	docs := make([]int32, 0, len(src.out)) // indexes of the documents' outcomes
	var skipped []snapRecord
	for i := range src.out {
		switch o := &src.out[i]; {
		case o.racy:
		case !o.skipped:
			docs = append(docs, int32(i))
		case o.skip >= SkipBinary:
			j := &src.jobs[i]
			skipped = append(skipped, snapRecord{scope: j.scope, path: j.path, rel: j.rel, key: o.key, skipped: true, skip: o.skip})
		}
	}
	slices.SortFunc(docs, func(a, b int32) int {
		return cmp.Or(compareDocs(src.out[a].doc, src.out[b].doc), cmp.Compare(a, b))
	})
	slices.SortFunc(skipped, func(a, b snapRecord) int {
		return cmp.Or(cmp.Compare(a.path, b.path), cmp.Compare(a.scope, b.scope))
	})
	recs := make([]snapRecord, 0, len(docs)+len(skipped))
	for _, i := range docs {
		j, o := &src.jobs[i], &src.out[i]
		d := o.doc
		recs = append(recs, snapRecord{
			scope: j.scope, path: j.path, rel: j.rel, key: o.key, typ: d.Type,
			truncated: d.BodyTruncated, title: d.Title, desc: d.Description, body: d.Body, doc: d,
		})
	}
	return append(recs, skipped...)
}

// writeSnapshots writes the pending records until none are left.
func (c *Catalog) writeSnapshots() {
	s := c.snap
	roots := absRoots(c.roots)
	for {
		s.mu.Lock()
		src := s.pending
		s.pending = nil
		if src == nil {
			s.writing = false
			close(s.done)
			s.done = nil
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		recs := src.records()
		var extra []byte
		if s.extra != nil {
			docs := make([]*Document, 0, len(recs))
			for i := range recs {
				if !recs[i].skipped {
					docs = append(docs, recs[i].doc)
				}
			}
			extra = s.extra.EncodeSnapshot(docs)
		}
		err := writeFileAtomic(s.path, encodeSnapshot(s.tag, roots, recs, extra))
		s.mu.Lock()
		if err != nil {
			s.stats.WriteErrors++
		} else {
			s.stats.Written++
		}
		s.mu.Unlock()
	}
}

// writeFileAtomic writes data to path through a temporary file in the same
// directory (0600), synced before it is renamed over path, so a reader
// sees the old file or the new one, never a part. The directory is made
// 0700.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("memory: snapshot dir: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("memory: snapshot dir: %w", err)
	}
	f, err := os.CreateTemp(dir, ".snap-*") // mode 0600
	if err != nil {
		return fmt.Errorf("memory: snapshot: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("memory: snapshot: %w", err)
	}
	return nil
}

// snapshotHeader is what a snapshot must carry to be trusted here: the
// format, the Unicode version of this binary and the caller's tag.
func snapshotHeader(tag string) string {
	return fmt.Sprintf("format=%d unicode=%s tag=%s", snapshotFormat, unicode.Version, tag)
}

// snapshotSum is the snapshot's checksum, CRC-32 with the IEEE
// polynomial. Both CRCs run at the same speed here, but the first use of
// CRC-32C in a process builds its combining tables (1.3 M instructions,
// about 335 µs of CPU in a fresh process on this VM), where CRC-32 only
// checks the CPU and builds a small table (about 31 µs): every fresh
// process with a snapshot paid the difference before its first result
// (docs/decisions/0839-snapshot-crc32-ieee.md).
func snapshotSum(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// encodeSnapshot encodes records: the magic, the CRC-32 of the rest, then
// the header, the two roots, the record count, the records (strings
// length-prefixed, integers as varints; no path) and the extra data.
func encodeSnapshot(tag string, roots [2]string, recs []snapRecord, extra []byte) []byte {
	size := 64 + len(tag) + len(roots[0]) + len(roots[1]) + len(extra)
	for i := range recs {
		r := &recs[i]
		size += 64 + len(r.rel) + len(r.title) + len(r.desc) + len(r.body)
	}
	b := make([]byte, 0, size)
	b = append(b, snapshotMagic...)
	b = append(b, 0, 0, 0, 0) // CRC, filled in below
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(snapshotHeader(tag))
	str(roots[0])
	str(roots[1])
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for i := range recs {
		r := &recs[i]
		switch {
		case r.skipped:
			b = append(b, byte(r.scope), byte(r.skip), recSkipped)
		case r.truncated:
			b = append(b, byte(r.scope), byte(r.typ), recTruncated)
		default:
			b = append(b, byte(r.scope), byte(r.typ), 0)
		}
		str(r.rel)
		b = binary.AppendVarint(b, r.key.size)
		b = binary.AppendVarint(b, r.key.mtime)
		b = binary.AppendVarint(b, r.key.ctime)
		b = binary.AppendUvarint(b, r.key.ino)
		b = binary.AppendUvarint(b, r.key.dev)
		str(r.title)
		str(r.desc)
		str(r.body)
	}
	b = binary.AppendUvarint(b, uint64(len(extra)))
	b = append(b, extra...)
	binary.LittleEndian.PutUint32(b[len(snapshotMagic):], snapshotSum(b[len(snapshotMagic)+4:]))
	return b
}

// snapReader decodes a snapshot's fields from one buffer, so every string
// of the result is a view of it (no allocation per field).
type snapReader struct {
	b   []byte
	err error
}

func (r *snapReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := uvarint(r.b)
	if n <= 0 {
		r.err = ErrSnapshotCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

// uvarint is binary.Uvarint, eight bytes at a time where eight can be
// loaded: a record's times are nanoseconds, nine bytes each, and
// binary.Uvarint's loop over them was a third of decoding a snapshot's
// records (callgrind, BenchmarkSnapshotLoad). TestUvarint holds it to
// binary.Uvarint, and FuzzSnapshotDecode decodes through it.
func uvarint(b []byte) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	if len(b) < 8 {
		return binary.Uvarint(b)
	}
	x := binary.LittleEndian.Uint64(b)
	if stop := ^x & 0x8080808080808080; stop != 0 {
		// The value ends in byte n−1 of the eight: keep bytes 0..n−1.
		n := bits.TrailingZeros64(stop)/8 + 1
		x &= 1<<(8*n) - 1 // all ones for n = 8
		return pack7(x), n
	}
	if len(b) > 8 && b[8] < 0x80 {
		// Nine bytes: the ninth holds bits 56 to 62 (a tenth byte would
		// be needed for the 64th, and only then can a value overflow).
		return pack7(x) | uint64(b[8])<<56, 9
	}
	return binary.Uvarint(b)
}

// pack7 joins the low seven bits of each of x's eight bytes, the first
// byte lowest, as a uvarint's groups are joined.
func pack7(x uint64) uint64 {
	x &= 0x7f7f7f7f7f7f7f7f
	x = x&0x007f007f007f007f | x>>1&0x3f803f803f803f80    // pairs: 14 bits in each 16
	x = x&0x00003fff00003fff | x>>2&0x0fffc0000fffc000    // fours: 28 bits in each 32
	return x&0x000000000fffffff | x>>4&0x00fffffff0000000 // eight: 56 bits
}

// varint is uvarint undoing binary.AppendVarint's zig-zag.
func (r *snapReader) varint() int64 {
	return unzigzag(r.uvarint())
}

// unzigzag undoes binary.AppendVarint's zig-zag.
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// takeUvarint reads a uvarint from the front of b and returns it and the
// rest of b; ok is false where uvarint fails.
func takeUvarint(b []byte) (v uint64, rest []byte, ok bool) {
	v, n := uvarint(b)
	if n <= 0 {
		return 0, nil, false
	}
	return v, b[n:], true
}

// takeStr reads a length-prefixed string from the front of b, a view of
// b's memory (never written again), and returns it and the rest of b. A
// length under 128, one byte, is read without a call.
func takeStr(b []byte) (s string, rest []byte, ok bool) {
	if len(b) > 0 && b[0] < 0x80 && int(b[0]) < len(b) {
		b, n := b[1:], int(b[0])
		return unsafe.String(unsafe.SliceData(b), n), b[n:], true
	}
	return takeStrLong(b)
}

func takeStrLong(b []byte) (string, []byte, bool) {
	n, k := uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", nil, false
	}
	b = b[k:]
	return unsafe.String(unsafe.SliceData(b), int(n)), b[n:], true
}

func (r *snapReader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = ErrSnapshotCorrupt
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// bytes returns the next length-prefixed field, a view of the buffer.
func (r *snapReader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = ErrSnapshotCorrupt
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// str is bytes viewed as a string: the buffer is never written again.
func (r *snapReader) str() string {
	v := r.bytes()
	return unsafe.String(unsafe.SliceData(v), len(v))
}

// minSnapRecord is the fewest bytes a record takes, which bounds the
// count a corrupt header may claim.
const minSnapRecord = 3 + 2 + 5 + 3 // flags, rel, key, three strings

// decodeSnapshot decodes data written by encodeSnapshot for tag and roots
// into its records and its extra data, each record's path its root joined
// with its relative path; decodeRecords says what is checked. The loader
// decodes through decodeRecords straight into its documents; this form
// is for the tests and the fuzz target, on the same decoder.
func decodeSnapshot(data []byte, tag string, roots [2]string) ([]snapRecord, []byte, error) {
	var recs []snapRecord
	extra, err := decodeRecords(data, tag, roots,
		func(n int) { recs = make([]snapRecord, n) },
		func(i int, rec *snapRecord) { recs[i] = *rec })
	if err != nil {
		return nil, nil, err
	}
	joinPaths(roots, len(recs),
		func(i int) (Scope, string) { return recs[i].scope, recs[i].rel },
		func(i int, path string) { recs[i].path = path })
	return recs, extra, nil
}

// decodeRecords decodes data written by encodeSnapshot for tag and roots:
// it calls start with the record count, then each with every record in
// turn (its path left empty; rec is reused, so each copies what it keeps),
// and returns the extra data. Every record is checked before each sees
// it: its scope and type valid, its relative path local, its key that of
// a regular file. An error means the snapshot is to be ignored whole: the
// caller drops whatever each built.
//
// The records' strings and the extra data share data's memory (no copy
// of a snapshot that can be tens of megabytes): the caller hands data
// over and never writes to it again.
func decodeRecords(data []byte, tag string, roots [2]string, start func(n int), each func(i int, rec *snapRecord)) ([]byte, error) {
	head := len(snapshotMagic) + 4
	if len(data) < head || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return nil, ErrSnapshotCorrupt
	}
	if snapshotSum(data[head:]) != binary.LittleEndian.Uint32(data[len(snapshotMagic):]) {
		return nil, ErrSnapshotCorrupt
	}
	r := &snapReader{b: data[head:]}
	n, err := r.head(tag, roots)
	if err != nil {
		return nil, err
	}
	if n > uint64(len(r.b)/minSnapRecord) {
		return nil, ErrSnapshotCorrupt
	}
	start(int(n))
	// The records are read from a local slice with takeUvarint (which the
	// compiler inlines around uvarint) and takeStr (one call, a one-byte
	// length read in it), instead of through the reader's methods: a
	// record is nine varints and four strings, and the methods' chain of
	// calls and error checks was most of decoding one (decision 0841).
	// What is accepted is the same (TestDecodeRecordsAsBefore,
	// FuzzSnapshotDecode).
	b := r.b
	var rec snapRecord
	for i := range int(n) {
		rec = snapRecord{}
		if len(b) < 3 {
			return nil, ErrSnapshotCorrupt
		}
		rec.scope = Scope(b[0])
		kind, flags := b[1], b[2]
		b = b[3:]
		var size, mtime, ctime uint64
		var ok bool
		if rec.rel, b, ok = takeStr(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		if size, b, ok = takeUvarint(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		if mtime, b, ok = takeUvarint(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		if ctime, b, ok = takeUvarint(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		if rec.key.ino, b, ok = takeUvarint(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		if rec.key.dev, b, ok = takeUvarint(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		rec.key.size, rec.key.mtime, rec.key.ctime = unzigzag(size), unzigzag(mtime), unzigzag(ctime)
		if rec.title, b, ok = takeStr(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		if rec.desc, b, ok = takeStr(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		if rec.body, b, ok = takeStr(b); !ok {
			return nil, ErrSnapshotCorrupt
		}
		switch flags {
		case recSkipped:
			rec.skipped, rec.skip = true, SkipReason(kind)
		case recTruncated:
			rec.truncated, rec.typ = true, Type(kind)
		default:
			rec.typ = Type(kind)
		}
		if flags > recSkipped || !validSnapRecord(&rec, roots) {
			return nil, ErrSnapshotCorrupt
		}
		each(i, &rec)
	}
	r.b = b
	extra := r.bytes()
	if r.err != nil || len(r.b) != 0 {
		return nil, ErrSnapshotCorrupt
	}
	return extra, nil
}

// head reads what follows the magic and the checksum up to the records:
// the header, which must be tag's, the roots, which must be roots, and
// the record count, which it returns unchecked.
func (r *snapReader) head(tag string, roots [2]string) (uint64, error) {
	if h := r.str(); r.err == nil && h != snapshotHeader(tag) {
		return 0, ErrSnapshotVersion
	}
	if p, u := r.str(), r.str(); r.err == nil && (p != roots[0] || u != roots[1]) {
		return 0, ErrSnapshotForeign
	}
	n := r.uvarint()
	if r.err != nil {
		return 0, ErrSnapshotCorrupt
	}
	return n, nil
}

// snapshotFiles reads, from the first bytes of a snapshot file of size
// bytes (head, possibly cut anywhere), how many files it holds, if it is
// a snapshot for tag and roots at all. It is a size hint only (the walk's jobs,
// decision 0838): nothing is checked but the magic, the header and the
// roots, since the checksum needs the whole file. A count a file that
// long could not hold records of, or that would make the hint's array of
// jobs larger than the file, is refused: so a hostile count costs the
// walk at most about the memory the file's own read buffer does.
func snapshotFiles(head []byte, size int64, tag string, roots [2]string) (int, bool) {
	const start = len(snapshotMagic) + 4
	if len(head) < start || string(head[:len(snapshotMagic)]) != snapshotMagic {
		return 0, false
	}
	r := &snapReader{b: head[start:]}
	n, err := r.head(tag, roots)
	if err != nil || n == 0 || n > uint64(size)/minSnapRecord || n > uint64(size)/uint64(unsafe.Sizeof(job{})) {
		return 0, false
	}
	return int(n), true
}

// joinPaths makes the path of each of n records, its root joined with its
// relative path as the walk makes it, in one buffer (one allocation, not
// one per record), and hands it to set. rec gives record i's scope and
// relative path, both already checked (decodeRecords).
func joinPaths(roots [2]string, n int, rec func(i int) (Scope, string), set func(i int, path string)) {
	size := 0
	for i := range n {
		sc, rel := rec(i)
		size += len(roots[sc]) + 1 + len(rel)
	}
	// Every byte of it is written below before a string views it: taken
	// uncleared and mapped in one call (decision 0830).
	paths := uninitBytes(size)[:0]
	prefault(paths[:size])
	for i := range n {
		sc, rel := rec(i)
		start := len(paths)
		paths = append(paths, roots[sc]...)
		paths = append(paths, filepath.Separator)
		paths = append(paths, filepath.FromSlash(rel)...)
		set(i, unsafe.String(&paths[start], len(paths)-start)) // paths is never written again
	}
}

// A record's flags byte.
const (
	recTruncated = 1
	recSkipped   = 2
)

// validSnapRecord checks what the scan itself would guarantee of a
// document read from the file, or of a file skipped for its content.
func validSnapRecord(rec *snapRecord, roots [2]string) bool {
	if rec.scope > ScopeUser || rec.key.size < 0 {
		return false
	}
	if rec.skipped {
		if rec.skip < SkipBinary || rec.skip >= numSkipReasons || rec.title != "" || rec.desc != "" || rec.body != "" {
			return false
		}
	} else if !knownType(rec.typ) {
		return false
	}
	return roots[rec.scope] != "" && localClean(rec.rel)
}

// knownType reports that ParseType(t.String()) succeeds: t is one of the
// four types, without making and matching the name.
func knownType(t Type) bool {
	switch t {
	case TypeUser, TypeFeedback, TypeProject, TypeReference:
		return true
	}
	return false
}

// localClean reports filepath.IsLocal(p) && filepath.Clean(p) == p for p
// the relative path rel in the system's separators, the check of every
// record's path. Where the separator is "/" it is one pass over rel: a
// path both local and clean is "." or a row of elements none of which is
// empty, "." or "..". filepath.Clean rewrites the path a byte at a time
// (a call per byte into its lazy buffer, which allocates only when the
// path changes), and that was the largest cost of decoding a snapshot's
// records (decision 0838); TestLocalClean checks the two agree on every
// short path.
//
// On "/" systems this is io/fs.ValidPath's loop without its first step,
// the UTF-8 check: localClean(rel) == fs.ValidPath(rel) for every rel
// that is valid UTF-8, and it is true for some that are not. It must stay
// so: a file name is whatever bytes the directory holds, the walk takes
// names as they come, and a record of a file whose name is not UTF-8 is
// as good as any other, so calling fs.ValidPath here would refuse those
// snapshots (TestLocalClean holds both halves).
func localClean(rel string) bool {
	if filepath.Separator != '/' {
		p := filepath.FromSlash(rel)
		return filepath.IsLocal(p) && filepath.Clean(p) == p
	}
	if rel == "." {
		return true
	}
	// Element by element, each found with IndexByte (one pass over the
	// bytes in wide steps) rather than a byte at a time.
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return rel != "" && rel != "." && rel != ".."
		}
		if e := rel[:i]; e == "" || e == "." || e == ".." {
			return false
		}
		rel = rel[i+1:]
	}
}
