package recall

import (
	"context"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/score"
	"github.com/memrecall/memrecall/telemetry"
)

// Engine is the recall core of one conversation: it keeps the memory
// catalog warm, runs each query's scan, ranking and selector call on its own
// goroutine, and feeds every lifecycle event, from whichever goroutine it
// comes, through one owner into the fsm. All methods are safe for
// concurrent use. See docs/decisions/0600-engine.md.
type Engine struct {
	cat   *memory.Catalog
	index *score.Index
	// relaying is the corpus's: set while a re-layout goroutine runs.
	relaying *atomic.Bool
	// relayout is index.Relayout; tests replace it to hold a re-layout.
	relayout func() bool
	// syncScanMax is syncScanMaxFiles; tests lower it to take the large
	// tree's path on a small one.
	syncScanMax int
	// ownCorpus: the engine built its corpus (no Options.Corpus), so
	// Shutdown closes it.
	ownCorpus bool
	// gate holds the warm-up's indexing back while a plan ranks;
	// ranking is the corpus's, which every plan of its engines holds too
	// (the snapshot writer waits on it).
	gate    rankGate
	ranking *rankGate
	// impatient is the corpus's count of snapshot writes that ran out of
	// patience at ranking.
	impatient *atomic.Int64
	// warmed is closed when the warm-up goroutine returns.
	warmed chan struct{}
	// primed records that the warm-up ran primeRank's ranking; written
	// before warmed closes, for tests.
	primed bool
	// warmUpEnd is newEngine's end: warmUpRelease but in benchmarks.
	warmUpEnd warmUpEnd
	// noWarmUp is Options.NoWarmUp: nothing indexes the tree for later
	// queries, and an empty query does not either (see run).
	noWarmUp bool
	selector model.Selector
	sink     telemetry.Sink
	clock    func() time.Time
	// budget is the byte budget of one injected text.
	budget int
	faults fault
	// beforeScan, when set by a test, runs at the start of each plan's
	// pipeline: it models a slow scan under synctest's fake clock.
	beforeScan func()
	// primeChecked, when set by a test, runs in primeRank after it found
	// its documents still the catalog's last scan, before it ranks them:
	// where another session's scan and query can land.
	primeChecked func()
	// beforePublish, when set by a test, runs in each plan's pipeline
	// after the deterministic result is in the fsm, just before Published
	// closes: where the plan must still hold the rank gate.
	beforePublish func()

	// origin is the zero of the fsm's time axis (monotonic).
	origin time.Time
	// life ends with Shutdown; every plan's context derives from it.
	life context.Context
	stop context.CancelFunc
	// wg counts every goroutine the engine started, except selector calls.
	wg sync.WaitGroup
	// calls tracks the selector calls in flight.
	calls selectorCalls

	// mu is the owner: it serialises every fsm step and the bookkeeping
	// that goes with it. Nothing blocks while holding it.
	mu sync.Mutex
	// sess is the lifecycle core. Invariant: only touched with mu held.
	sess *fsm.Session
	// cur is the plan the session calls current (nil before the first
	// query). Invariant: cur == nil || cur.id == sess.Current().
	cur *Plan
	// closed is set by Shutdown; no goroutine is started after it.
	closed bool
}

// New starts an engine on the given memory roots and begins warming its
// catalog in the background (unless Options.NoWarmUp), so the first query
// reads memory that is already parsed and indexed. Call Shutdown when the
// conversation ends.
func New(opts Options) *Engine {
	return newEngine(opts, 0, warmUpRelease)
}

// newEngine is New with deliberate defects (faults, in a memrecall_mutant
// build) and the warm-up ending with end instead of warmUpRelease.
func newEngine(opts Options, faults fault, end warmUpEnd) *Engine {
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	life, stop := context.WithCancel(context.Background())
	corpus, own := opts.Corpus, false
	if corpus == nil {
		corpus, own = NewCorpus(opts), true
	}
	e := &Engine{
		cat:         corpus.cat,
		index:       corpus.index,
		relaying:    &corpus.relaying,
		ranking:     &corpus.ranking,
		impatient:   &corpus.impatient,
		relayout:    corpus.index.Relayout,
		ownCorpus:   own,
		syncScanMax: syncScanMaxFiles,
		budget:      promptBudget(opts.MaxPromptBytes),
		selector:    opts.Selector,
		sink:        opts.Sink,
		clock:       clock,
		faults:      faults,
		origin:      time.Now(),
		life:        life,
		stop:        stop,
		sess:        fsm.NewSession(),
		warmed:      make(chan struct{}),
		noWarmUp:    opts.NoWarmUp,
		warmUpEnd:   end,
	}
	if opts.NoWarmUp {
		close(e.warmed)
		return e
	}
	e.wg.Add(1)
	go e.warm()
	return e
}

// warmChunk is how many documents the warm-up indexes between two looks
// at the rank gate: about half a millisecond of work, the most a query
// that starts ranking meanwhile waits for the index.
const warmChunk = 32

// warm reads the memory tree once and prepares the index for it, so the
// first query pays neither the cold scan nor the tokenisation. A query that
// arrives meanwhile joins the scan and ranks first: the warm-up indexes in
// chunks and waits at the rank gate while any plan is ranking, so the
// query has every core for scoring the documents not indexed yet
// (docs/decisions/0605-cold-path.md). Shutdown stops it between chunks.
func (e *Engine) warm() {
	defer e.wg.Done()
	defer close(e.warmed)
	res, err := e.scan()
	if err != nil {
		return
	}
	for start := 0; start < len(res.Docs); start += warmChunk {
		e.gate.wait(e.life)
		if e.life.Err() != nil {
			return
		}
		e.index.Warm(res.Docs[start:min(start+warmChunk, len(res.Docs))])
	}
	if len(res.Docs) == 0 {
		return
	}
	// The live index's term map and posting lists hold several times the
	// tree's bytes; the frozen layout answers the same from a fraction. It
	// is laid out once, at the end: laying it out every thousand documents
	// on the way re-laid the whole index each time, tripling the warm-up's
	// CPU on a Chinese tree (docs/decisions/0122-frozen-after-warm-up.md).
	e.gate.wait(e.life)
	if e.life.Err() != nil {
		return
	}
	if e.index.Freeze(res.Docs) && e.warmUpEnd != warmUpKeep {
		// Building the index touched several times the memory it now
		// holds; give those pages back to the system once, rather than
		// keep them resident for the daemon's lifetime (decision 0122).
		debug.FreeOSMemory()
		if e.warmUpEnd == warmUpRelease {
			e.primed = e.primeRank(res.Docs)
		}
	}
}

// primeRank ranks docs once for nothing and collects the garbage, after
// the warm-up's FreeOSMemory. The release also returned the pages a query
// allocates into, and the index's scratch arrays were never allocated (the
// warm-up indexes, it does not rank): the first query after Warmed
// faulted them in, 35–48 page faults and 1.0–2.6 ms of CPU against
// 0.6–0.8 ms for the same query later, at 1,000 topics
// (BenchmarkFirstQueryAfterWarmed). The ranking here keeps the scratch
// arrays and leaves the pages its garbage took resident and free, so the
// first query finds them as later ones do; it is the warm-up's work, done
// before Warmed closes (docs/decisions/0811-first-query-after-warm-up.md).
// Its query is two documents' titles, so that it matches and weighs
// postings as a real query does; nothing of it is kept or reported.
//
// The index may be a Corpus's, shared with other engines (the daemon's
// sessions): a query of another session may have scanned a newer tree
// meanwhile, and Rank evicts every entry of a document it is not given, so
// ranking the warm-up's older documents would throw away that query's
// entries for the next one to index again. The prime runs only while docs
// are still the catalog's last scan, and reports whether it ran; a query
// that has ranked a newer tree already did its work. The check and the
// ranking are one step under the index's lock (score.Index.RankIf): the
// rank gate is the engine's own and does not hold back another session's
// query, which could otherwise scan a newer tree and rank it between the
// two. A scan that lands after the check does no harm: the query that made
// it ranks after the prime, so it indexes its new documents once, as it
// would have without a prime.
func (e *Engine) primeRank(docs []*memory.Document) bool {
	e.gate.wait(e.life)
	if e.life.Err() != nil || len(docs) == 0 {
		return false
	}
	var text string
	for _, d := range []*memory.Document{docs[0], docs[len(docs)/2]} {
		if d != nil {
			text += d.Title + " "
		}
	}
	ran := e.index.RankIf(score.NewQuery(text, nil), docs, func() bool {
		if last, ok := e.cat.Last(); !ok || !slices.Equal(last.Docs, docs) {
			return false
		}
		if e.primeChecked != nil {
			e.primeChecked()
		}
		return true
	})
	if ran {
		runtime.GC()
	}
	return ran
}

// scan revalidates the catalog. It is not cancellable on purpose: the
// catalog finishes a scan it started whatever its callers do, and waiting
// for it here is what lets Shutdown promise that no goroutine of the
// engine — the catalog's included — outlives it.
func (e *Engine) scan() (memory.Result, error) {
	return e.cat.Scan(context.Background())
}

// Warmed returns a channel that is closed when the engine's warm-up has
// read the tree and indexed it (or given up, or Shutdown stopped it), or at
// once when Options.NoWarmUp asked for none. A
// host never needs it — a query during the warm-up ranks what is read so
// far — but one whose first query would otherwise race a cold scan
// against the initial ceiling (a daemon whose first event of a session is
// its first prompt) can wait on it within its own budget first.
func (e *Engine) Warmed() <-chan struct{} { return e.warmed }

// now is the fsm's clock: the monotonic time since the engine started.
func (e *Engine) now() time.Duration { return time.Since(e.origin) }

// Query starts the recall plan of a new user query and returns at once;
// the scan, ranking and selector call run in the background. Any open plan
// of the previous query is discarded (new_query) and its selector call
// cancelled. When ctx ends, the plan is aborted. After Shutdown the plan is
// already closed and delivers nothing.
func (e *Engine) Query(ctx context.Context, q Query) *Plan {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return closedPlan(e)
	}
	out := e.sess.Step(fsm.QueryStarted(e.now()))
	p := newPlan(e, out.Plan, q, ctx)
	// Only this plan's own deliveries change the surfaced set while it is
	// open (a reset ends it), so the set read now holds for its lifetime.
	p.surfaced = e.sess.SurfacedDocs()
	prev := e.cur
	e.cur = p
	out.Send(e.sink)
	e.wg.Add(1)
	e.mu.Unlock()

	if prev != nil && out.Closed == prev.id {
		prev.close()
	}
	go e.run(p)
	p.watch(ctx)
	if ctx.Err() != nil {
		// Already cancelled: abort now, not when the watch's goroutine
		// gets to it.
		p.Abort()
	}
	return p
}

// Reset starts the conversation afresh: the open plan, if any, is
// discarded (reset) and every document becomes eligible again.
//
// A document's identity is its path (spec §2.5), not its content: a
// memory file edited after it was delivered is still the document that
// was delivered, so it is not delivered again in this session until
// Reset. A host that wants an edited memory shown again calls Reset (for
// example when the agent compacts or clears its context).
func (e *Engine) Reset() {
	e.apply(nil, fsm.Reset(e.now()))
}

// Shutdown discards the open plan (shutdown), cancels every call in
// flight and waits until every goroutine the engine started has returned.
// Later calls on the engine or its plans do nothing. Shutdown is
// idempotent.
//
// When its corpus keeps a snapshot (Options.SnapshotDir, or the shared
// Corpus's), it also waits for the snapshot write under way, so that the
// last scan's snapshot is on disk when it returns. On a shared Corpus that
// write may have been queued by another engine's scan, and it waits for
// the corpus's other engines' queries to stop ranking, for 5 s at most in
// all (decision 0837), before it indexes what the index lacks and
// encodes.
//
// From inside the engine's own Selector.Select, call ShutdownFrom with
// Select's context instead: Shutdown would wait for that call, which
// cannot return before Shutdown does.
func (e *Engine) Shutdown() { e.ShutdownFrom(context.Background()) }

// ShutdownFrom is Shutdown for a caller that may be running inside the
// engine's own Selector.Select: ctx is the context Select received, or
// one derived from it, on any goroutine. It then waits for everything
// except that selector call, which returns when Select does. With any
// other context it is exactly Shutdown. The context only names the
// caller: its cancellation does not cut the wait short.
func (e *Engine) ShutdownFrom(ctx context.Context) {
	if ctx == nil {
		ctx = context.Background()
	}
	e.mu.Lock()
	if !e.closed {
		e.closed = true
		out := e.sess.Step(fsm.Shutdown(e.now()))
		out.Send(e.sink)
		e.closeLocked(out.Closed)
	}
	e.mu.Unlock()
	e.stop()
	e.wg.Wait()             // every plan pipeline has returned: no call is pending
	e.calls.waitOthers(ctx) // every selector call but the caller's own
	e.cat.WaitSnapshot()    // a snapshot write under way finishes on disk
	if e.ownCorpus {
		e.cat.Close() // the watch's descriptor; a shared corpus is its owner's
	}
}

// apply steps the fsm with ev on behalf of plan p (nil for session-wide
// events), sends the telemetry, cancels a plan the step closed and renders
// what the step delivers.
func (e *Engine) apply(p *Plan, ev fsm.Event) Injection {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.applyLocked(p, ev)
}

func (e *Engine) applyLocked(p *Plan, ev fsm.Event) Injection {
	out := e.sess.Step(ev)
	var inj Injection
	if !out.Dropped && !out.Deliver.Empty() && p != nil {
		inj = p.render(out.Deliver)
	}
	out.Send(e.sink)
	e.closeLocked(out.Closed)
	return inj
}

// closeLocked cancels the plan the fsm just closed. Only the current plan
// can be open, so it is the only one that can be closed.
func (e *Engine) closeLocked(id fsm.PlanID) {
	if id != 0 && e.cur != nil && e.cur.id == id {
		e.cur.close()
	}
}
