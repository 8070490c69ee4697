package memory

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Roots names the two scope directories. Either may be "" (that scope is
// absent, which is not a skip); a root that does not exist is counted as
// SkipRootMissing.
type Roots struct {
	Project string
	User    string
	// PlainProject says the project root also holds topic files without
	// frontmatter, as Gemini CLI writes them: such a file is read as a
	// project document (title from its `# ` heading) instead of being
	// skipped as SkipNoFrontmatter (docs/decisions/0108-plain-notes.md).
	// The user root always requires frontmatter.
	PlainProject bool
}

// Result is what a scan found.
type Result struct {
	// Docs holds the documents: project scope first, then user; within a
	// scope newest Modified first; ties by RelPath. The slice is the
	// caller's; the Documents are shared and immutable.
	Docs []*Document
	// Skipped counts the files and directories passed over, by reason.
	Skipped SkipCounts
	// SkippedFiles names the topic files counted in Skipped, in walk
	// order, when the catalog was made WithSkippedFiles (nil otherwise).
	// Skips of roots, directories and links are counted only. It holds
	// paths: for the user's own eyes (memrecall scan -v), never for
	// telemetry.
	SkippedFiles []SkippedFile
	// Stats describes the work the scan did.
	Stats Stats
}

// Stats describes the work of one scan, for benchmarks and the command
// line.
type Stats struct {
	// Dirs is the number of directories listed.
	Dirs int
	// Listed is the number of topic files the walk found.
	Listed int
	// Read is the number of files opened and read.
	Read int
	// Reused is the number of files answered from the catalog after a
	// stat showed them unchanged.
	Reused int
	// Workers is the number of concurrent file workers.
	Workers int
	// Watched says the scan was answered by the catalog's file-system
	// watch (WithWatch): no event since the last full scan could change
	// its result, so no directory was listed and no file stat-ed; Listed
	// and Reused then repeat that scan's count.
	Watched bool
	// Duration is the scan's wall time.
	Duration time.Duration
}

// SkippedFile is one topic file a scan passed over, and why.
type SkippedFile struct {
	Scope   Scope
	RelPath string
	Reason  SkipReason
}

// Option configures a Catalog.
type Option func(*Catalog)

// WithSkippedFiles makes every Result name its skipped topic files
// (Result.SkippedFiles).
func WithSkippedFiles() Option {
	return func(c *Catalog) { c.listSkips = true }
}

// WithWorkers sets how many files are read concurrently (default: the
// number of CPUs, at least 2 and at most 8; spec §8 measured no gain past
// two workers on two cores, and a little overlap helps a cold disk).
func WithWorkers(n int) Option {
	return func(c *Catalog) {
		if n > 0 {
			c.workers = n
		}
	}
}

// WithRacyWindow sets how close to a scan's start a file's modification
// or change time must be for the scan to distrust the file's stat and read
// it again next time (and leave it out of the snapshot): 2 s by default,
// the coarsest timestamp granularity of common file systems. A shorter
// window is sound only where timestamps have nanosecond granularity; a test
// sets 0 to trust the files it has just written.
func WithRacyWindow(d time.Duration) Option {
	return func(c *Catalog) { c.racyWindow = max(d, 0) }
}

// WithWatch makes the catalog revalidate from file-system notifications
// where it can (Linux inotify): a Scan that finds nothing reported since
// the last full scan answers from the catalog without listing a directory
// or stat-ing a file. Everything the watch cannot vouch for falls back to
// the stat revalidation of every Scan (see Catalog). The watch holds one
// inotify descriptor and one watch per directory until Close.
func WithWatch() Option {
	return func(c *Catalog) {
		if c.watch == nil {
			c.watch = newWatcher(c.watchSys)
		}
	}
}

// withInotify is WithWatch through a test's kernel seam.
func withInotify(sys inotifySys) Option {
	return func(c *Catalog) {
		c.watchSys = sys
		c.watch = newWatcher(sys)
	}
}

// RacyWindow is the catalog's default racy window (WithRacyWindow): it
// covers the timestamp granularity of common file systems (Linux takes
// file times from a clock that ticks every few milliseconds; FAT keeps
// 2 s). A file whose times are that close to now may change again without
// its stat changing, so a stat taken then proves nothing; other caches
// of files (the daemon's config) use the same rule.
const RacyWindow = 2 * time.Second

// Catalog is an in-process cache of a memory tree. It is safe for
// concurrent use.
//
// Freshness guarantee: every Scan lists every directory again and stats
// every topic file, so an added or removed file, or a file whose size,
// modification time, change time, inode or device differ from the last
// scan, is seen by the next Scan that starts after the change. A file is
// re-read only then, and a file whose stat is unchanged keeps its
// *Document pointer. One exception is handled, not assumed away: a file
// rewritten within the file system's timestamp granularity of the moment it
// was read could keep an identical stat, so a file whose mtime or ctime is
// within 2 s of the scan that read it is read again by the next scan (its
// pointer is kept when the content turns out identical). Not detected: a
// rewrite that keeps the size and forges both timestamps (ctime can only be
// forged by changing the system clock).
//
// Scans never overlap: a Scan (or Warm) that starts while another scan
// runs joins it and returns its result. (With a watch that vouches for
// the tree, a Scan that joined then asks the watch whether anything
// changed since, and if so waits for a scan that starts after it.)
//
// With WithWatch, a Scan first drains the watch's notification queue (one
// non-blocking read, after the Scan began: the kernel queues an event
// before the write, rename or delete that caused it returns). When no
// event could change the result, every scope root still resolves to the
// directory watched, and the last full scan was wholly watched, the Scan
// returns that scan's result with no other I/O (Stats.Watched). Otherwise
// it is the full revalidation above, which also arms a new watch: every
// directory is watched before it is listed. A full scan is not watched
// (the next Scan revalidates by stat again) when the tree holds a symlink
// or a file with several hard links (either can change without an event
// in a watched directory), a directory on a file system whose changes
// inotify may miss (NFS, FUSE, ...), more than 4,096 directories, or when
// the kernel refuses (instance or watch limits); a lost event
// (IN_Q_OVERFLOW) or a watched directory removed or moved is a full scan.
// Writes through a shared memory mapping are not reported by inotify: with
// the watch such a change is seen at the next full scan. See
// docs/decisions/0620-inotify-revalidation.md.
type Catalog struct {
	roots      Roots
	workers    int
	listSkips  bool
	fsys       fileSystem
	racyWindow time.Duration
	textsMin   int // textsMinFiles; tests lower it (withTextsMin)
	now        func() time.Time

	mu       sync.Mutex
	inflight *call  // guarded by mu
	last     Result // guarded by mu; the last completed scan
	hasLast  bool   // guarded by mu

	// Only the goroutine running a scan touches these; scans never
	// overlap (inflight).
	cache   scopeCache
	gen     uint64
	prev    []*Document // the last sorted result, reused when nothing changed
	scratch [][]byte    // the workers' read buffers; nil until a worker reads

	snap *snapshotState // nil: no snapshot (see WithSnapshot)

	// watch is nil without WithWatch (and always off Linux). Its state
	// belongs to the scan goroutine while a scan runs, else to mu's holder.
	watch    *watcher
	watchSys inotifySys
	closed   bool // guarded by mu; set by Close
}

// scopeCache holds the entries of each scope by absolute path: the two
// roots may overlap (a user root inside a project root), and each scope
// has its own documents. Keying by a plain string lets the walk look a
// file up from a reused byte buffer without allocating its path.
type scopeCache [2]map[string]*entry

func (sc *scopeCache) len() int { return len(sc[0]) + len(sc[1]) }

// entry is the catalog's record of one file. Invariant: exactly one of
// doc and skip-with-skipped is meaningful: doc != nil, or skipped is true.
type entry struct {
	path    string // the job's path and rel, reused by the next walk
	rel     string
	key     fileKey
	doc     *Document
	skip    SkipReason
	skipped bool
	racy    bool   // key may not reflect a rewrite in the same tick: re-read
	gen     uint64 // the scan that last saw the file
}

// call is one scan that any number of callers wait for.
type call struct {
	done chan struct{}
	res  Result
	err  error
}

// NewCatalog returns an empty catalog of roots. It does no I/O: call Warm
// to fill it in the background, or Scan.
func NewCatalog(roots Roots, opts ...Option) *Catalog {
	c := &Catalog{
		roots:      roots,
		workers:    min(max(runtime.GOMAXPROCS(0), 2), 8),
		fsys:       osFS{},
		racyWindow: RacyWindow,
		textsMin:   textsMinFiles,
		now:        time.Now,
		cache:      scopeCache{{}, {}},
	}
	for _, o := range opts {
		o(c)
	}
	if c.watch != nil {
		// A host that drops the catalog without Close does not leak the
		// descriptor past the next collection.
		runtime.AddCleanup(c, (*watcher).release, c.watch)
	}
	return c
}

// Close releases the catalog's watch (WithWatch): its descriptor and
// watches. A scan under way keeps its watch until it ends. The catalog
// stays usable: later Scans revalidate by listing and stat. Close is
// idempotent and always returns nil.
func (c *Catalog) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.inflight == nil && c.watch != nil {
		c.watch.release()
	}
	return nil
}

// Watching reports whether the catalog holds a file-system watch now (an
// inotify descriptor): false without WithWatch, off Linux, after Close,
// and when the last full scan could not be watched.
func (c *Catalog) Watching() bool { return c.watch != nil && c.watch.holds() }

// WatchRefused reports whether the kernel refused the catalog's last full
// scan a watch (an inotify instance: the per-user limit, 128 by default,
// is the usual cause), so it revalidates by stat until a later full scan
// gets one. False without WithWatch and off Linux, where no watch is
// asked for.
func (c *Catalog) WatchRefused() bool { return c.watch != nil && c.watch.wasRefused() }

// Current returns the last scan's result when the watch shows the tree
// unchanged since (Stats.Watched), and false otherwise: no watch, nothing
// scanned yet, a scan under way, or anything reported or in doubt. It
// never lists or stats the tree; it drains the notification queue and
// stats the scope roots.
func (c *Catalog) Current() (Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inflight != nil {
		return Result{}, false
	}
	return c.currentLocked()
}

// currentLocked is Current with mu held and no scan in flight.
func (c *Catalog) currentLocked() (Result, bool) {
	if c.watch == nil || c.closed || !c.hasLast {
		return Result{}, false
	}
	start := c.now()
	if !c.watch.unchanged() {
		return Result{}, false
	}
	res := c.last
	res.Docs = slices.Clone(res.Docs)
	res.Stats = Stats{Listed: res.Stats.Listed, Reused: res.Stats.Listed, Watched: true}
	res.Stats.Duration = c.now().Sub(start)
	return res, true
}

// Roots returns the roots the catalog reads.
func (c *Catalog) Roots() Roots { return c.roots }

// Scan revalidates the tree and returns its documents. Only new and
// changed files are read. If a scan is already running (a Warm, or
// another caller's Scan) it waits for that scan instead of starting a
// second one. Cancelling ctx stops the wait, not the shared scan, which
// completes and fills the catalog for the next caller.
//
// The error is ctx's, or a failure to make a root absolute; bad files and
// missing roots are counted in Result.Skipped, never returned.
func (c *Catalog) Scan(ctx context.Context) (Result, error) {
	c.mu.Lock()
	cl := c.inflight
	joined := cl != nil
	if cl == nil {
		var res Result
		if res, cl = c.currentOrStartLocked(); cl == nil {
			c.mu.Unlock()
			return res, nil
		}
	}
	c.mu.Unlock()
	if err := cl.wait(ctx); err != nil {
		return Result{}, err
	}
	if joined && cl.err == nil && c.watch != nil {
		// The scan joined began before this call and may have listed a
		// directory before a change this call must see. When the watch
		// vouches for the tree, it says whether anything changed since;
		// if something did, wait for a scan that starts after this call.
		c.mu.Lock()
		switch {
		case c.inflight != nil:
			// Started after the joined scan ended: after this call began.
			cl = c.inflight
		case c.watch.vouches():
			var res Result
			if res, cl = c.currentOrStartLocked(); cl == nil {
				c.mu.Unlock()
				return res, nil
			}
		}
		c.mu.Unlock()
		if err := cl.wait(ctx); err != nil {
			return Result{}, err
		}
	}
	res := cl.res
	res.Docs = slices.Clone(res.Docs)
	return res, cl.err
}

// currentOrStartLocked is what a Scan does with mu held and no scan in
// flight to join: the watch's current result when it vouches for the tree
// (cl is nil), else a new scan to wait for.
func (c *Catalog) currentOrStartLocked() (res Result, cl *call) {
	if res, ok := c.currentLocked(); ok {
		return res, nil
	}
	return Result{}, c.startLocked()
}

// wait waits for the scan to end, or for ctx.
func (cl *call) wait(ctx context.Context) error {
	select {
	case <-cl.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Warm starts a scan in the background, unless one is running, and returns
// at once. A host calls it when a session starts so the first query's Scan
// finds the catalog filled (or joins the scan still under way).
func (c *Catalog) Warm() {
	c.mu.Lock()
	if c.inflight == nil {
		c.startLocked()
	}
	c.mu.Unlock()
}

// Last returns the result of the last completed scan without touching the
// file system, and false if no scan has completed. It lets a host answer
// from the catalog while a revalidating Scan runs.
func (c *Catalog) Last() (Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	res := c.last
	res.Docs = slices.Clone(res.Docs)
	return res, c.hasLast
}

func (c *Catalog) startLocked() *call {
	cl := &call{done: make(chan struct{})}
	c.inflight = cl
	go func() {
		cl.res, cl.err = c.scan()
		c.mu.Lock()
		c.inflight = nil
		if cl.err == nil {
			c.last, c.hasLast = cl.res, true
		}
		if c.closed && c.watch != nil {
			c.watch.release()
		}
		c.mu.Unlock()
		close(cl.done)
	}()
	return cl
}

// outcome is a worker's answer for one job.
type outcome struct {
	key     fileKey
	doc     *Document
	skip    SkipReason
	skipped bool
	racy    bool
	read    bool
}

// scan runs one full scan. It is called by one goroutine at a time.
func (c *Catalog) scan() (Result, error) {
	start := c.now()
	// The first scan of a catalog with a snapshot reads the snapshot while
	// it walks and stats the tree (decision 0803). The walk then sees an
	// empty cache; the jobs are matched with the seeded entries after it.
	// When the load ends with nothing to seed (no snapshot yet, or one
	// ignored), the walk stops statting files it knows nothing of and the
	// scan skips statAll: they are read, as without a snapshot.
	seed := c.startSnapshotLoad()
	if seed != nil {
		defer func() {
			if seed != nil {
				seed.wait(c) // a failed walk still seeds the next scan
			}
		}()
	}
	w := walker{fsys: c.fsys, cache: c.cache}
	if seed != nil {
		w.cache = scopeCache{} // the cache is the loader's until seed returns
		w.statNew = &seed.seeds
		w.files = &seed.files
	} else {
		// A rescan lists about the files its cache holds: its jobs take
		// one array sized for them, not a doubling (and a prefault call)
		// at each size on the way (appendJob), which only a first walk
		// into fresh memory needs.
		w.jobs = make([]job, 0, c.cache.len())
	}
	defer w.close()
	if c.watch != nil {
		c.mu.Lock()
		closed := c.closed
		c.mu.Unlock()
		if !closed {
			c.watch.arm()
			w.watch = c.watch
		}
	}
	if err := w.walkRoot(c.roots.Project, ScopeProject); err != nil {
		w.settleWatch(false)
		return Result{}, err
	}
	if err := w.walkRoot(c.roots.User, ScopeUser); err != nil {
		w.settleWatch(false)
		return Result{}, err
	}

	if seed != nil {
		if seed.seeds.Load() {
			c.statAll(w.jobs)
		}
		seed.wait(c)
		seed = nil
		// The walk saw an empty cache: every job is matched here.
		for i := range w.jobs {
			j := &w.jobs[i]
			j.old = c.cache[j.scope][j.path]
		}
	}

	// Files the catalog has never seen will be read: their Documents and
	// entries come from one allocation each instead of one per file (a cold
	// scan of 10,000 topics otherwise spends a visible share on malloc and
	// GC), and an empty scope map is sized once.
	var fresh [2]int
	for i := range w.jobs {
		if j := &w.jobs[i]; j.old == nil {
			j.slot = fresh[0] + fresh[1]
			fresh[j.scope]++
		}
	}
	slab := make([]Document, fresh[0]+fresh[1])
	entries := make([]entry, len(slab))
	// Mapped in one call each rather than a fault per page as the workers
	// and the fold first write them (as the documents' text is: texts).
	prefaultSlice(slab)
	prefaultSlice(entries)
	for sc, n := range fresh {
		if len(c.cache[sc]) == 0 && n > 0 {
			c.cache[sc] = make(map[string]*entry, n)
		}
	}

	out := make([]outcome, len(w.jobs))
	// A scan that reads at least textsMin files for the first time is a
	// cold read of a tree: it maps its memory in blocks (texts, outcomes).
	coldRead := fresh[0]+fresh[1] >= c.textsMin
	if coldRead || w.statNew != nil {
		// A scan that reads a tree for the first time, or answers it
		// from the snapshot (statNew: its walk ran while the snapshot
		// loaded), maps its outcomes in one call too; a rescan
		// (the daemon's, a warm StatOnly engine's) makes no such call for
		// the little it writes.
		prefaultSlice(out)
	}
	racyBefore := start.Add(-c.racyWindow).UnixNano()
	workers := min(c.workers, max(len(w.jobs), 1))
	for len(c.scratch) < workers {
		// Made by the worker's first read (visit): a scan that finds
		// every file unchanged reads none and needs no buffer.
		c.scratch = append(c.scratch, nil)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for i := range workers {
		buf := &c.scratch[i]
		wg.Go(func() {
			var crlf []byte
			var tx *texts // nil: each document's text is its own allocation
			if coldRead {
				tx = new(texts)
			}
			for {
				j := int(next.Add(1) - 1)
				if j >= len(w.jobs) {
					return
				}
				out[j], crlf = c.visit(&w.jobs[j], slab, buf, crlf, tx, racyBefore)
			}
		})
	}
	wg.Wait()

	// Fold the outcomes into the catalog and the result.
	c.gen++
	res := Result{Skipped: w.skipped}
	res.Stats.Dirs = w.dirs
	res.Stats.Listed = len(w.jobs)
	res.Stats.Workers = workers
	docs := make([]*Document, 0, len(w.jobs))
	changed := false
	linked := false
	for i := range w.jobs {
		j, o := &w.jobs[i], &out[i]
		linked = linked || o.key.links > 1
		e := j.old
		if e == nil {
			e = &entries[j.slot]
			c.cache[j.scope][j.path] = e
			changed = true
		}
		if e.doc != o.doc || e.skipped != o.skipped {
			changed = true
		}
		*e = entry{path: j.path, rel: j.rel, key: o.key, doc: o.doc, skip: o.skip, skipped: o.skipped, racy: o.racy, gen: c.gen}
		if o.read {
			res.Stats.Read++
		} else {
			res.Stats.Reused++
		}
		if o.skipped {
			res.Skipped[o.skip]++
			if c.listSkips {
				res.SkippedFiles = append(res.SkippedFiles, SkippedFile{Scope: j.scope, RelPath: j.rel, Reason: o.skip})
			}
			continue
		}
		docs = append(docs, o.doc)
	}
	if c.cache.len() != len(w.jobs) {
		for _, m := range c.cache {
			for p, e := range m {
				if e.gen != c.gen {
					delete(m, p)
					changed = true
				}
			}
		}
	}
	if changed || len(docs) != len(c.prev) {
		slices.SortFunc(docs, compareDocs)
		c.prev = docs
	} else {
		docs = c.prev
	}
	res.Docs = docs
	// A file with several names can change through one no watched
	// directory holds.
	w.settleWatch(!linked)
	res.Stats.Duration = c.now().Sub(start)
	if c.snap != nil && (c.snap.takeStale() || changed || res.Stats.Read > 0) {
		c.queueSnapshot(w.jobs, out)
	}
	return res, nil
}

// statOutcome is a file's stat taken before its entry was known.
type statOutcome struct {
	key fileKey
	err error
}

// statAll stats every job's file the walk did not stat, on the scan's
// workers, into the job. The first scan with a snapshot does this while
// the snapshot loads, before it knows which files the snapshot holds.
func (c *Catalog) statAll(jobs []job) {
	todo := make([]*job, 0, len(jobs))
	for i := range jobs {
		if jobs[i].pre == nil {
			todo = append(todo, &jobs[i])
		}
	}
	pre := make([]statOutcome, len(todo)) // one allocation for them all
	prefaultSlice(pre)                    // one call, not a fault per page (decision 0830)
	for i, j := range todo {
		j.pre = &pre[i]
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(c.workers, max(len(todo), 1)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(todo) {
					return
				}
				j := todo[i]
				j.pre.key, j.pre.err = c.fsys.stat(j.path, j.at)
			}
		})
	}
	wg.Wait()
}

// visit revalidates or reads one file. j.pre, when not nil, is the file's
// stat taken earlier in this scan (by the walk or statAll), used instead
// of a new one. A file read for the first time keeps its text in tx's
// blocks, a changed one in its own allocation (see texts). *buf is the
// worker's read buffer, made by its first read.
func (c *Catalog) visit(j *job, slab []Document, buf *[]byte, crlf []byte, tx *texts, racyBefore int64) (outcome, []byte) {
	if e := j.old; e != nil && !e.racy {
		var k fileKey
		var err error
		if pre := j.pre; pre != nil {
			k, err = pre.key, pre.err
		} else {
			k, err = c.fsys.stat(j.path, j.at)
		}
		if err != nil {
			return outcome{skip: skipForIO(err), skipped: true}, crlf
		}
		if k.same(e.key) {
			return outcome{key: k, doc: e.doc, skip: e.skip, skipped: e.skipped}, crlf
		}
	}
	if *buf == nil {
		*buf = make([]byte, ReadLimit)
	}
	n, k, err := c.fsys.readPrefix(j.path, j.at, *buf)
	o := outcome{key: k, read: true, racy: k.mtime >= racyBefore || k.ctime >= racyBefore}
	if err != nil {
		if err == errNotRegular {
			o.skip = SkipUnreadable
		} else {
			o.skip = skipForIO(err)
		}
		o.skipped = true
		return o, crlf
	}
	complete := int64(n) >= k.size
	// Checked and normalised once, whichever reader takes the bytes.
	text, crlf, err := normalize((*buf)[:n], complete, crlf)
	if j.old != nil {
		tx = nil
	}
	var p Parsed
	if err == nil {
		p, _, err = parseNormalized(text, complete, false, tx)
	}
	if err == ErrNoFrontmatter && j.scope == ScopeProject && c.roots.PlainProject {
		p, err = parsePlainNormalized(text, complete, j.rel, TypeProject, tx), nil
	}
	if err != nil {
		o.skip, o.skipped = skipFor(err), true
		return o, crlf
	}
	var d *Document
	if j.old == nil {
		d = &slab[j.slot]
	} else {
		d = new(Document)
	}
	*d = Document{
		ID:            ID(j.path),
		Scope:         j.scope,
		RelPath:       j.rel,
		Type:          p.Type,
		Title:         p.Title,
		Description:   p.Description,
		Body:          p.Body,
		BodyTruncated: p.BodyTruncated,
		Modified:      k.modified(),
		Size:          k.size,
	}
	if j.old != nil && j.old.doc != nil && sameDocument(j.old.doc, d) {
		d = j.old.doc
	}
	o.doc = d
	return o, crlf
}

// sameDocument reports that two versions of a file parse identically, so
// the older pointer can be kept.
func sameDocument(a, b *Document) bool {
	return a.ID == b.ID && a.Scope == b.Scope && a.RelPath == b.RelPath &&
		a.Type == b.Type && a.Title == b.Title && a.Description == b.Description &&
		a.Body == b.Body && a.BodyTruncated == b.BodyTruncated &&
		a.Modified.Equal(b.Modified) && a.Size == b.Size
}

// compareDocs is the result order: scope (project first), newest first,
// then relative path.
func compareDocs(a, b *Document) int {
	if c := cmp.Compare(a.Scope, b.Scope); c != 0 {
		return c
	}
	if c := b.Modified.Compare(a.Modified); c != 0 {
		return c
	}
	return cmp.Compare(a.RelPath, b.RelPath)
}
