package recall

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/score"
	"github.com/memrecall/memrecall/telemetry"
)

// syncScanMaxFiles decides how fresh a query's view of the tree is. When
// the last scan listed at most this many topic files, the query
// revalidates before ranking (one directory listing per directory and one
// stat per file: a few milliseconds at 2,000 files) and sees every change
// made before it started. A larger tree is ranked from the catalog's last
// result, which a revalidation started by the same query refreshes for the
// next one: revalidating 10,000 files costs more than the whole 15 ms
// Query → fast budget of spec §8. A file count rather than the last scan's
// duration, so the choice does not flip with the machine's load. See
// docs/decisions/0603-freshness.md. Either way, a tree the catalog's watch
// shows unchanged is exact at no cost (docs/decisions/0620-inotify-revalidation.md).
const syncScanMaxFiles = 2000

// snapshot returns the documents a query ranks, and whether they came
// from the catalog's last result without revalidation. Then the plan
// revalidates once the host has its initial prompt (Plan.refresh), so the
// stats compete neither with the ranking nor with the host building its
// first request.
func (e *Engine) snapshot() (res memory.Result, cached bool, err error) {
	if last, ok := e.cat.Last(); ok && last.Stats.Listed > e.syncScanMax {
		if cur, ok := e.cat.Current(); ok {
			return cur, false, nil
		}
		return last, true, nil
	}
	res, err = e.scan()
	return res, false, err
}

// refresh starts the revalidation the plan owes, once.
func (p *Plan) refresh() {
	if p.staleView.CompareAndSwap(true, false) {
		p.e.revalidate()
	}
}

// revalidate starts a background scan, counted so Shutdown waits for it.
func (e *Engine) revalidate() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		_, _ = e.scan() // the catalog keeps the result; errors surface at the next query
	}()
}

// run is the goroutine of one plan: scan → rank → candidates → publish the
// deterministic result → selector → settle. Each step that reaches the fsm
// goes through the owner lock; a plan that ended meanwhile is dropped
// there, so run never checks staleness itself.
func (e *Engine) run(p *Plan) {
	defer e.wg.Done()
	defer close(p.settled)
	published := false
	defer func() {
		if !published {
			close(p.published)
		}
	}()
	// The plan holds the rank gate until it has published its
	// deterministic result (or gives up), so the warm-up's indexing
	// competes neither with its scoring nor with its hand-off
	// (docs/decisions/0612-cold-query-first.md); it holds the corpus's
	// gate too, which the snapshot writer's indexing waits on (0832).
	e.gate.enter()
	e.ranking.enter()
	inGate := true
	leaveGate := func() {
		if inGate {
			inGate = false
			e.gate.leave()
			e.ranking.leave()
		}
	}
	defer leaveGate()

	if e.beforeScan != nil {
		e.beforeScan()
	}
	res, cached, err := e.snapshot()
	scanTook := time.Since(p.start)
	if p.ctx.Err() != nil {
		return
	}
	if err != nil {
		// The only scan error is a root that cannot be made absolute:
		// nothing to rank, and nothing for a selector to choose from.
		// Publishing and settling empty ends the plan at its first point
		// (no_relevant_results) instead of leaving it open.
		e.mu.Lock()
		p.trace.Err = err
		e.applyLocked(p, fsm.DeterministicPublished(p.id, e.now(), nil, 0, scanTook))
		e.applyLocked(p, fsm.SelectorSettled(p.id, e.now(), 0, nil))
		e.mu.Unlock()
		return
	}
	q := score.NewQuery(p.q.Text, p.q.RecentTools)
	var kept []*memory.Document
	var found []score.Match
	if e.noWarmUp && q.Unranked() {
		// Nothing to score and no tool to filter: Rank would keep every
		// document, rank none, and index the whole tree for the queries
		// after this one, which an engine without a warm-up does not
		// expect (a one-shot `memrecall query "the"` spent three times a
		// real query's CPU on it; decision 0812).
		kept = score.KeepAll(res.Docs)
	} else {
		kept, found = e.index.Rank(q, res.Docs)
	}
	kept, found = p.unsurfaced(kept, found)
	matches := make([]*memory.Document, len(found))
	ranking := make([]fsm.DocID, len(found))
	for i, m := range found {
		matches[i] = m.Doc
		ranking[i] = fsm.DocID(m.Doc.ID)
	}
	cands := buildCandidates(matches, kept)

	e.mu.Lock()
	p.ranked, p.cands, p.sq = found, cands, q
	p.trace.Skipped = res.Skipped
	p.trace.Watched, p.trace.Stale = res.Stats.Watched, cached
	p.trace.Scanned, p.trace.Kept, p.trace.Ranked, p.trace.Candidates = len(res.Docs), len(kept), found, cands
	p.trace.Scan, p.trace.Publish = scanTook, time.Since(p.start)
	e.applyLocked(p, fsm.DeterministicPublished(p.id, e.now(), ranking, len(res.Docs), scanTook))
	if e.selector == nil {
		// Deterministic only: the lexical top five are the result, settled
		// in the same step so the initial point sees it.
		p.trace.Strategy = telemetry.StrategyHeuristic
		p.trace.Settle = time.Since(p.start)
		e.applyLocked(p, fsm.SelectorFailed(p.id, e.now(), 0))
	}
	e.mu.Unlock()
	if e.beforePublish != nil {
		e.beforePublish()
	}
	close(p.published)
	published = true
	// Only now, with the deterministic result out, may the warm-up's
	// indexing and a re-layout take the cores (decision 0612).
	leaveGate()
	if e.index.RelayoutDue() && e.relaying.CompareAndSwap(false, true) {
		// This query evicted enough for the frozen index to be laid out
		// again; that runs beside the rest of the plan, not inside its
		// Rank, which never does it (decisions 0125, 0906). One
		// goroutine at a time: a query that finds one running leaves the
		// work to it (a re-layout covers every document the index holds),
		// and a query after it starts the next if one is due again.
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			defer e.relaying.Store(false)
			e.relayout()
		}()
	}
	if cached {
		p.staleView.Store(true)
	}
	if e.selector == nil {
		return
	}

	manifest := model.BuildManifest(cands)
	out := e.settle(e.selectorCtx(p), model.Request{
		Query: p.q.Text, Manifest: manifest, RecentTools: p.q.RecentTools,
		Limit: fsm.MaxRelevantDocs,
	})
	if out.Cancelled {
		return // the plan ended; whatever ended it was recorded then
	}
	var ev fsm.Event
	switch out.Strategy {
	case telemetry.StrategyModel, telemetry.StrategyNone:
		chosen := make([]fsm.DocID, len(out.Docs))
		for i, id := range out.Docs {
			chosen[i] = fsm.DocID(id)
		}
		ev = fsm.SelectorSettled(p.id, e.now(), out.Duration, chosen)
	default:
		ev = fsm.SelectorFailedWith(p.id, e.now(), out.Duration, out.ErrKind)
	}

	e.mu.Lock()
	p.trace.ManifestDocs, p.trace.ManifestBytes = manifest.Len(), len(manifest.Text())
	p.trace.Strategy, p.trace.Selected, p.trace.ErrKind, p.trace.Err = out.Strategy, out.Docs, out.ErrKind, out.Err
	p.trace.Selector, p.trace.Settle = out.Duration, time.Since(p.start)
	target := p
	if mutantsBuilt && e.faults != 0 {
		target, ev = e.faults.settleTarget(e, p), e.faults.settleEvent(e, ev)
	}
	e.applyLocked(target, ev)
	e.mu.Unlock()
}

// unsurfaced removes the documents surfaced before the plan started from
// its pool and ranking (spec §5.6: they are excluded from later
// recalls). The fsm excludes them from every delivery anyway; doing it here
// as well keeps them out of the manifest, so the selector spends its five
// picks on documents that can still be delivered, and makes the heuristic
// fallback the top five of what is left rather than of the whole ranking.
func (p *Plan) unsurfaced(kept []*memory.Document, ranked []score.Match) ([]*memory.Document, []score.Match) {
	if len(p.surfaced) == 0 {
		return kept, ranked
	}
	k := kept[:0:0]
	for _, d := range kept {
		if !p.wasSurfaced(d.ID) {
			k = append(k, d)
		}
	}
	r := ranked[:0:0]
	for _, m := range ranked {
		if !p.wasSurfaced(m.Doc.ID) {
			r = append(r, m)
		}
	}
	return k, r
}

// wasSurfaced reports that id was delivered before the plan started.
func (p *Plan) wasSurfaced(id memory.ID) bool {
	_, ok := slices.BinarySearch(p.surfaced, fsm.DocID(id))
	return ok
}

// settle runs model.Settle with the engine's selector, tracking the
// selector call itself in e.calls. Settle returns as soon as its context
// ends and leaves the call's goroutine to return on its own; tracking the
// call is what lets Shutdown promise that no selector call outlives it (for
// a selector that honours its context, as model.Selector requires).
//
// The call is announced before Settle starts it (run is still counted in
// e.wg, so once Shutdown's wait for e.wg returns no announcement is left
// pending), and is either registered by the call when it begins, its
// token put in the context Select gets, or withdrawn here if Settle never
// made it.
func (e *Engine) settle(ctx context.Context, req model.Request) model.Outcome {
	const (
		notStarted = iota
		started
		abandoned
	)
	var state atomic.Int32
	e.calls.announce()
	counted := model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
		if !state.CompareAndSwap(notStarted, started) {
			return nil, ctx.Err() // Settle gave up before the call began
		}
		ctx, end := e.calls.begin(ctx)
		defer end()
		return e.selector.Select(ctx, req)
	})
	out := model.Settle(ctx, counted, req)
	if state.CompareAndSwap(notStarted, abandoned) {
		e.calls.withdraw()
	}
	return out
}

// selectorCtx is the context the selector call runs under: the plan's, so
// that anything ending the plan cancels the call.
func (e *Engine) selectorCtx(p *Plan) context.Context {
	if e.faults.has(faultStaleSettle) {
		return e.life
	}
	return p.ctx
}
