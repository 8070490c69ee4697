package recall

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/score"
	"github.com/memrecall/memrecall/telemetry"
)

// initialCeiling bounds Plan.Initial's wait (spec §5.1). The wait
// normally ends much earlier, on the deterministic result: a warm query of
// 10,000 topics publishes it in 2.8–3.0 ms on two cores at load ≈ 4
// (docs/performance.md) and in 9–47 ms at load ≈ 24 (2026-11-30), both by
// `go test ./recall -run '^$' -bench 'BenchmarkQueryToFast/topics=10000/warm$'`
// (publish-ms/op).
// The ceiling only matters when the scan itself is slow — a cold tree of
// thousands of files — and then 100 ms is the most a first model request
// should be held for memory. See docs/decisions/0602-initial-ceiling.md.
const initialCeiling = 100 * time.Millisecond

// Query is one user query as the engine needs it.
type Query struct {
	// Text is the user's message. It is ranked locally and sent to the
	// selector; it never reaches telemetry.
	Text string
	// RecentTools names the tools the agent used recently, most recent
	// first, for the noise filter (spec §3.8) and the selector.
	RecentTools []string
}

// Plan is the recall plan of one query. Its methods mark the points of the
// host's turn; each returns what to inject there, if anything. A plan's
// methods are safe to call from any goroutine, and calling them on a plan
// that has ended (replaced by a newer query, reset, aborted, shut down) is
// harmless: they return an empty Injection.
type Plan struct {
	e  *Engine
	id fsm.PlanID
	q  Query
	// start is when the query arrived.
	start time.Time

	// ctx lives until the plan is closed; the selector call runs under it.
	ctx    context.Context
	cancel context.CancelFunc
	// caller is the context the host gave Query. Every delivery point
	// checks it under the owner lock before stepping, so a host that has
	// called cancel() gets nothing at its next point, whether or not the
	// watch's abort has run yet.
	caller context.Context
	// published is closed when the deterministic result reached the fsm
	// (or the plan's pipeline gave up).
	published chan struct{}
	// settled is closed when the pipeline finished: the selector settled,
	// or the plan ended first.
	settled chan struct{}

	// surfaced holds the documents delivered earlier in the session,
	// sorted, as the fsm gave them when the plan started; the plan ranks
	// and offers only the rest.
	surfaced []fsm.DocID

	// staleView is set when the plan ranked the catalog's last result
	// without revalidating it; refresh then starts a revalidation.
	staleView atomic.Bool

	watchMu   sync.Mutex
	stopWatch func() bool

	// Guarded by e.mu.
	ranked []score.Match
	// sq is the prepared query the ranking used; rendering reads it to
	// show the passage of a document matched only past its body window.
	sq    score.Query
	cands []*memory.Document
	trace Trace
}

func newPlan(e *Engine, id fsm.PlanID, q Query, caller context.Context) *Plan {
	ctx, cancel := context.WithCancel(e.life)
	return &Plan{
		e: e, id: id, q: q, start: time.Now(),
		ctx: ctx, cancel: cancel, caller: caller,
		published: make(chan struct{}),
		settled:   make(chan struct{}),
	}
}

// closedPlan is what Query returns after Shutdown: ended before it began.
func closedPlan(e *Engine) *Plan {
	p := newPlan(e, 0, Query{}, context.Background())
	p.cancel()
	close(p.published)
	close(p.settled)
	return p
}

// watch aborts the plan when the caller's context ends. context.AfterFunc
// costs no goroutine until it fires, and close stops it. The abort runs
// later, on another goroutine; the delivery points do not rely on it
// (see caller).
func (p *Plan) watch(ctx context.Context) {
	stop := context.AfterFunc(ctx, p.Abort)
	p.watchMu.Lock()
	p.stopWatch = stop
	p.watchMu.Unlock()
	if p.ctx.Err() != nil {
		stop()
	}
}

// close cancels the plan's work: its selector call, its caller watch.
func (p *Plan) close() {
	p.cancel()
	p.watchMu.Lock()
	if p.stopWatch != nil {
		p.stopWatch()
	}
	p.watchMu.Unlock()
}

// Published returns a channel that is closed when the plan's
// deterministic result (the lexical ranking, hence the fast delivery) has
// reached the lifecycle, or the plan's pipeline gave up. Initial waits for
// it up to the engine's initial ceiling; a host whose own budget is larger
// can wait for it longer before calling Initial — a daemon answering the
// first query on an engine still warming, whose scan and cold ranking may
// not fit the ceiling on a loaded machine (docs/decisions/0721). On a
// warm engine it is closed within milliseconds.
func (p *Plan) Published() <-chan struct{} { return p.published }

// Initial marks the initial delivery point: the host is about to send the
// first model request of the turn. It waits until the first of: the
// deterministic result is published (on a warm engine, a few
// milliseconds), the plan settles, the plan ends, ctx ends, or the internal
// ceiling passes; then it returns what the initial prompt carries — the
// refined result if the plan already settled, else the top two lexical
// matches not surfaced before (the fast delivery), else nothing.
//
// ctx bounds only this wait. If it ends first the host has given up on the
// request, so the plan is aborted and nothing is delivered.
func (p *Plan) Initial(ctx context.Context) Injection {
	if ctx.Err() != nil {
		// Checked first: select picks at random among ready cases, and a
		// host that has already given up must not get a delivery.
		p.Abort()
		p.refresh()
		return Injection{}
	}
	timer := time.NewTimer(initialCeiling)
	defer timer.Stop()
	published, expired := p.published, timer.C
	if p.e.faults.has(faultIgnoreCeiling) {
		published, expired = nil, nil
	}
	select {
	case <-published:
	case <-p.settled:
	case <-p.ctx.Done():
	case <-p.caller.Done():
	case <-expired:
	case <-ctx.Done():
		p.Abort()
		p.refresh()
		return Injection{}
	}
	inj := p.point(fsm.InitialPoint(p.id, p.e.now()))
	p.refresh()
	return inj
}

// point steps the fsm with a delivery point, unless the context given to
// Query has ended: then the plan is aborted instead, in the same critical
// section, so nothing is delivered after the host's cancel() returned and
// the telemetry records the abort.
func (p *Plan) point(ev fsm.Event) Injection {
	p.e.mu.Lock()
	defer p.e.mu.Unlock()
	if p.caller.Err() != nil {
		p.e.applyLocked(p, fsm.Abort(p.id, p.e.now()))
		return Injection{}
	}
	return p.e.applyLocked(p, ev)
}

// ToolResult marks a tool-result point: a tool's result is going back to
// the model in a new request. It never blocks on recall: if the plan has
// settled, the refined result minus the documents already delivered is
// returned (and the plan ends); otherwise nothing, and the next tool
// result asks again.
func (p *Plan) ToolResult() Injection {
	inj := p.point(fsm.ToolResultPoint(p.id, p.e.now()))
	p.refresh()
	return inj
}

// End marks the end of the turn: the model answered without another
// request. An open plan is discarded and its selector call cancelled. The
// reason is no_safe_delivery_point when the plan had not settled or still
// had documents to deliver; a settled plan with nothing left records why it
// had nothing: no_relevant_results (empty selection) or already_delivered
// (every selected document surfaced before). See
// docs/decisions/0606-end-reason.md.
func (p *Plan) End() {
	p.point(fsm.TurnEnded(p.id, p.e.now()))
	p.refresh()
}

// Abort cancels the plan (abort): its selector call stops and it delivers
// nothing more. Aborting an ended plan does nothing.
func (p *Plan) Abort() {
	p.e.apply(p, fsm.Abort(p.id, p.e.now()))
}

// Settled returns a channel that is closed when the plan's selector has
// settled or the plan has ended, whichever is first. A host never needs
// it — ToolResult does not block — but a command-line tool or a test that
// wants the refined result at the next point can wait on it.
func (p *Plan) Settled() <-chan struct{} { return p.settled }

// render turns a delivery decided by the fsm into text. Documents are
// looked up in this plan's ranking and candidates: the fsm only delivers
// documents the plan handed it.
func (p *Plan) render(d fsm.Delivery) Injection {
	docs := make([]*memory.Document, 0, len(d.Docs))
	for _, id := range d.Docs {
		if doc := p.lookup(memory.ID(id)); doc != nil {
			docs = append(docs, doc)
		}
	}
	var text string
	if mutantsBuilt && p.e.faults != 0 {
		docs, text = p.e.faults.render(docs, p, d.Phase == telemetry.PhaseRefined, p.e.clock())
	} else {
		docs = docs[:min(len(docs), MaxPromptDocs)]
		text = renderWithin(excerpts(docs, p.ranked, p.sq), p.e.clock(), p.e.budget)
	}
	inj := Injection{
		Text:     text,
		Docs:     make([]memory.ID, len(docs)),
		Phase:    d.Phase,
		Strategy: d.Strategy,
	}
	for i, doc := range docs {
		inj.Docs[i] = doc.ID
	}
	if d.Phase == telemetry.PhaseFast {
		p.trace.Fast = inj.Docs
	} else {
		p.trace.Refined = inj.Docs
	}
	return inj
}

func (p *Plan) lookup(id memory.ID) *memory.Document {
	for _, m := range p.ranked {
		if m.Doc.ID == id {
			return m.Doc
		}
	}
	for _, d := range p.cands {
		if d.ID == id {
			return d
		}
	}
	return nil
}
