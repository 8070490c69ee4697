package props

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
	"github.com/memrecall/memrecall/telemetry"
)

// engineCeiling is recall's initial-wait ceiling (an internal constant of
// the engine, restated here as the liveness bound the suite holds it to).
const engineCeiling = 100 * time.Millisecond

// engineInvariantsOnlyEnv, set to 1, makes the suite judge the engine by
// its model-free invariants alone (the mutation runner uses it to show the
// invariants catch each defect without the model's help).
const engineInvariantsOnlyEnv = "MEMRECALL_ENGINE_INVARIANTS_ONLY"

// engineChecks is how many rapid checks the engine suite runs: a tenth of
// rapid's configured count (RAPID_CHECKS or -rapid.checks), at least 100.
// One engine check builds a real engine on a real tree and drives a whole
// session, about a hundred times the work of one fsm check, so CI's
// RAPID_CHECKS=10000 gives 1,000 engine sessions (tens of thousands of
// interleaved events) in well under two minutes.
func engineChecks() int {
	n := 100
	if f := flag.Lookup("rapid.checks"); f != nil {
		if v, err := strconv.Atoi(f.Value.String()); err == nil {
			n = v
		}
	}
	return max(100, n/10)
}

// withChecks runs f with rapid's check count set to n. rapid reads its
// flag when a check starts; the props tests do not run in parallel.
func withChecks(t *testing.T, n int, f func()) {
	f0 := flag.Lookup("rapid.checks")
	if f0 == nil {
		f()
		return
	}
	old := f0.Value.String()
	if err := flag.Set("rapid.checks", strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = flag.Set("rapid.checks", old) }()
	// rapid seeds itself from the clock, which a synctest bubble fixes at
	// 2000-01-01: every run would replay the same sessions. Draw the seed
	// from math/rand/v2's runtime-seeded source instead, unless one was
	// given (rapid prints it on failure: RAPID_SEED=... reproduces).
	if s := flag.Lookup("rapid.seed"); s != nil && s.Value.String() == "0" {
		if err := flag.Set("rapid.seed", strconv.FormatUint(rand.Uint64()|1, 10)); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = flag.Set("rapid.seed", "0") }()
	}
	f()
}

// TestEngineLifecycle is the model-based property suite over the real
// recall engine, on a real memory tree, with scripted selectors of drawn
// latency, failure and answer. Time is testing/synctest's fake clock: the
// initial ceiling, selector delays and the 30 s selector timeout pass
// without real waiting, and after every action the suite waits until every
// engine goroutine is idle, so each outcome is decided by the fake clock,
// not by the scheduler. Some actions run several host calls on separate
// goroutines at once.
//
// Properties, checked after every host call:
//
//   - no cross-query leakage: an injection holds only documents that match
//     its own query lexically or that its own selector named;
//   - no double injection between resets;
//   - bounded prompts: at most 5 documents, a fast one at most 2, text
//     within recall.MaxPromptBytes with one heading per document;
//   - fast only from Initial, once per plan, never after the plan's
//     refined delivery or after the host ended, aborted or replaced it;
//   - at most one refined delivery per plan; after Shutdown, exactly one
//     terminal telemetry event per plan, and delivery telemetry counts
//     exactly the documents injected (also per call);
//   - privacy: queries and documents carry random marker strings; no
//     serialized telemetry event holds one, nor a path or file name;
//   - liveness: Initial returns within the ceiling;
//   - the deliveries equal a plain model of spec §4–§5 (selection,
//     exclusion, fast, refined remainder, discards) whenever the
//     interleaving is sequential and no event tied with a settle.
func TestEngineLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := newEngineTree(t, rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)))
		runs := 0
		stats := map[string]int{}
		withChecks(t, engineChecks(), func() {
			rapid.Check(bubbleTB{t}, func(rt *rapid.T) {
				runs++
				h := newEngineHarness(rt, tr)
				h.stats = stats
				defer h.close(rt)
				actions := h.actions()
				// Sessions start with a user's message: rapid ends a run
				// at an action that skips in its first step, and every
				// call but query needs a plan.
				actions["query"](rt)
				rt.Repeat(actions)
			})
		})
		// rapid stops early when it thinks the test's deadline is near;
		// under the fake clock that would be a silent cut. Hold it to the
		// count this suite promises.
		want := engineChecks()
		if testing.Short() {
			want /= 5 // rapid's own -short rule
		}
		if !t.Failed() && runs < want {
			t.Errorf("rapid ran %d engine sessions, want at least %d", runs, want)
		}
		t.Logf("%d engine sessions; outcomes: %v", runs, stats)
	})
}

// bubbleTB hides *testing.T's type from rapid, which otherwise calls
// t.Deadline — forbidden inside a synctest bubble. rapid then assumes a
// 24 h deadline, measured on the bubble's fake clock.
type bubbleTB struct{ *testing.T }

// engineScript is how one query's selector behaves.
type engineScript struct {
	delay time.Duration
	keys  []string
	fail  bool
}

// enginePlan is one query: the host's handle, what the model expects of
// it, and what was observed.
type enginePlan struct {
	n       int
	plan    *recall.Plan
	text    string
	script  engineScript
	cancel  context.CancelFunc
	queryAt time.Time

	// The model. certain is false once an interleaving made the plan's
	// state ambiguous; then only the invariants judge it.
	certain       bool
	surfacedStart map[memory.ID]bool
	ranking       []memory.ID // lexical ranking of the plan's pool
	poolEmpty     bool
	selection     []memory.ID
	strategy      telemetry.Strategy
	settleAt      time.Time
	live          bool
	initialPassed bool

	// Observed.
	given     map[memory.ID]bool // matches of the query ∪ documents its selector named
	hostEnded bool               // End, Abort, cancel, a newer Query, Reset or Shutdown returned
	fast      int
	refined   int
}

type engineHarness struct {
	tr    *engineTree
	eng   *recall.Engine
	rec   *telemetry.Recorder
	logs  *lockedBuffer
	start time.Time

	mu      sync.Mutex // guards scripts: the selector reads it on engine goroutines
	scripts map[string]engineScript

	detOnly        bool
	closed         bool
	plans          []*enginePlan
	injected       map[memory.ID]bool // since the last reset
	injectedCount  int
	seenEvents     int
	queryMarkers   []string
	log            []string
	invariantsOnly bool
	stats          map[string]int // across runs: outcomes reached, model comparisons made
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newEngineHarness(t *rapid.T, tr *engineTree) *engineHarness {
	h := &engineHarness{
		tr: tr, rec: &telemetry.Recorder{}, logs: &lockedBuffer{}, start: time.Now(),
		scripts: map[string]engineScript{}, injected: map[memory.ID]bool{},
		detOnly:        rapid.IntRange(0, 4).Draw(t, "deterministic_only_roll") == 0,
		invariantsOnly: os.Getenv(engineInvariantsOnlyEnv) == "1",
	}
	sink := teeSink{h.rec, telemetry.Slog(slog.New(slog.NewJSONHandler(h.logs, nil)))}
	opts := recall.Options{
		ProjectDir: tr.project, UserDir: tr.user, Sink: sink,
		Clock: func() time.Time { return time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC) },
	}
	if !h.detOnly {
		opts.Selector = model.SelectorFunc(h.selectFor)
	}
	eng, err := newSuiteEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.eng = eng
	synctest.Wait() // the warm-up has run
	return h
}

// teeSink sends every event to two sinks.
type teeSink [2]telemetry.Sink

func (s teeSink) Selection(e telemetry.Selection) { s[0].Selection(e); s[1].Selection(e) }
func (s teeSink) Delivery(e telemetry.Delivery)   { s[0].Delivery(e); s[1].Delivery(e) }

// selectFor is the scripted selector: the answer drawn for the query,
// after its delay (model.Delayed: a fake-clock timer that honours ctx).
func (h *engineHarness) selectFor(ctx context.Context, req model.Request) ([]string, error) {
	h.mu.Lock()
	s := h.scripts[req.Query]
	h.mu.Unlock()
	inner := model.Scripted{Answer: s.keys}
	if s.fail {
		inner.Err = fmt.Errorf("scripted failure")
	}
	return model.Delayed{Inner: inner, Delay: s.delay}.Select(ctx, req)
}

func (h *engineHarness) now() time.Duration { return time.Since(h.start) }

func (h *engineHarness) logf(format string, args ...any) {
	h.log = append(h.log, fmt.Sprintf("%8v  ", h.now())+fmt.Sprintf(format, args...))
}

// fail stops the run with the host-call log that led to it.
func (h *engineHarness) fail(t *rapid.T, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s\n\nhost calls (deterministic_only=%v):\n%s", fmt.Sprintf(format, args...), h.detOnly, strings.Join(h.log, "\n"))
}

func (h *engineHarness) modelFail(t *rapid.T, format string, args ...any) {
	t.Helper()
	if !h.invariantsOnly {
		h.fail(t, format, args...)
	}
}

func (h *engineHarness) current() *enginePlan {
	if len(h.plans) == 0 {
		return nil
	}
	return h.plans[len(h.plans)-1]
}

// actions are the rapid actions: one per host call, a sleep that lets
// selectors answer, and a concurrent burst. Weights are given by
// repetition; rapid also favours the first key in sorted order, so the
// sleep that moves sessions forward is named to sort first.
func (h *engineHarness) actions() map[string]func(*rapid.T) {
	a := map[string]func(*rapid.T){"": h.checkInvariants}
	add := func(name string, weight int, f func(*rapid.T)) {
		for i := 1; i <= weight; i++ {
			key := name
			if i > 1 {
				key = fmt.Sprintf("%s/%d", name, i)
			}
			a[key] = func(t *rapid.T) {
				if h.stats != nil {
					h.stats["action_"+name]++
				}
				f(t)
			}
		}
	}
	add("query", 3, func(t *rapid.T) {
		h.sequential(t, func() { h.query(t) })
		// Most hosts reach the initial point at once: the turn's first
		// model request follows the user's message.
		if !h.closed && rapid.IntRange(0, 2).Draw(t, "initial_at_once_roll") != 0 {
			h.sequential(t, func() { h.initial(t, h.current(), false) })
		}
	})
	add("initial", 4, func(t *rapid.T) { h.sequential(t, func() { h.initial(t, h.pick(t), false) }) })
	add("initial_cancelled", 1, func(t *rapid.T) { h.sequential(t, func() { h.initial(t, h.pick(t), true) }) })
	add("tool_result", 5, func(t *rapid.T) { h.sequential(t, func() { h.toolResult(t, h.pick(t)) }) })
	add("end", 1, func(t *rapid.T) { h.sequential(t, func() { h.end(t, h.pick(t)) }) })
	add("abort", 1, func(t *rapid.T) { h.sequential(t, func() { h.abort(t, h.pick(t)) }) })
	add("cancel_query_ctx", 1, func(t *rapid.T) { h.sequential(t, func() { h.cancelCtx(t, h.pick(t)) }) })
	add("reset", 1, func(t *rapid.T) { h.sequential(t, func() { h.reset(t) }) })
	add("a_sleep", 3, func(t *rapid.T) {
		var d time.Duration
		if rapid.IntRange(0, 5).Draw(t, "long_sleep_roll") == 0 {
			d = time.Duration(rapid.IntRange(1, 45).Draw(t, "sleep_s")) * time.Second
		} else {
			d = time.Duration(rapid.IntRange(1, 400).Draw(t, "sleep_ms")) * time.Millisecond
		}
		h.logf("sleep %v", d)
		time.Sleep(d)
		synctest.Wait()
		h.checkTelemetry(t, 0, "sleep")
		// The sleep is often the model request of a turn that called a
		// tool: its result goes back when the request returns.
		if len(h.plans) > 0 && rapid.IntRange(0, 1).Draw(t, "tool_after_sleep_roll") == 1 {
			h.sequential(t, func() { h.toolResult(t, h.current()) })
		}
	})
	add("concurrent", 2, h.concurrent)
	add("shutdown", 1, func(t *rapid.T) {
		if len(h.log) < 12 {
			t.Skip("shutdown only late in a run")
		}
		h.sequential(t, func() { h.shutdown(t) })
	})
	return a
}

// pick draws the plan a call goes to: usually the current one, sometimes
// an older one (a host holding on to a stale plan).
func (h *engineHarness) pick(t *rapid.T) *enginePlan {
	if len(h.plans) == 0 {
		t.Skip("no plan yet")
	}
	if len(h.plans) > 1 && rapid.IntRange(0, 4).Draw(t, "old_plan_roll") == 0 {
		return h.plans[rapid.IntRange(0, len(h.plans)-2).Draw(t, "old_plan")]
	}
	return h.current()
}

// sequential runs one host call and lets the engine go idle.
func (h *engineHarness) sequential(t *rapid.T, f func()) {
	f()
	synctest.Wait()
}

// drawScript draws the selector's behaviour for one query.
func (h *engineHarness) drawScript(t *rapid.T) engineScript {
	var s engineScript
	// Delays are whole milliseconds plus half of one, so a settle never
	// ties with a host call (host calls happen on whole milliseconds);
	// the 30 s timeout can tie, and the model treats that as ambiguous.
	switch rapid.IntRange(0, 9).Draw(t, "delay_kind") {
	case 0:
		s.delay = 40 * time.Second // past model.SelectorTimeout
	case 1, 2, 3:
		s.delay = time.Duration(rapid.IntRange(1, 80).Draw(t, "delay_ms"))*time.Millisecond + time.Millisecond/2
	default:
		s.delay = time.Duration(rapid.IntRange(100, 3000).Draw(t, "delay_ms"))*time.Millisecond + time.Millisecond/2
	}
	s.fail = rapid.IntRange(0, 7).Draw(t, "fail_roll") == 0
	if rapid.IntRange(0, 9).Draw(t, "unknown_key_roll") == 0 {
		s.keys = append(s.keys, "project/no-such-note.md")
	}
	s.keys = append(s.keys, rapid.SliceOfN(rapid.SampledFrom(h.tr.keys), 0, 6).Draw(t, "answer")...)
	return s
}

func (h *engineHarness) query(t *rapid.T) {
	words := rapid.SliceOfN(rapid.SampledFrom(engineVocab), 1, 2).Draw(t, "words")
	marker := rapid.StringOfN(rapid.RuneFrom([]rune("abcdefghijklmnopqrstuvwxyz")), 12, 12, -1).Draw(t, "query_marker")
	text := fmt.Sprintf("%s %s %d", strings.Join(words, " "), marker, len(h.plans)) // unique per plan
	s := h.drawScript(t)
	h.mu.Lock()
	h.scripts[text] = s
	h.mu.Unlock()
	h.queryMarkers = append(h.queryMarkers, marker)
	h.startPlan(t, text, s, true)
}

// startPlan issues Query and builds the model of the new plan. certain is
// false when the surfaced set at its start is ambiguous.
func (h *engineHarness) startPlan(t *rapid.T, text string, s engineScript, certain bool) *enginePlan {
	ctx, cancel := context.WithCancel(context.Background())
	now := time.Now()
	h.advance(now)
	prev := h.current()
	if prev != nil && !h.closed {
		prev.live = false
	}
	for _, p := range h.plans {
		p.hostEnded = true // replaced
	}
	plan := h.eng.Query(ctx, recall.Query{Text: text})
	if h.closed {
		cancel()
		h.logf("query %q after shutdown", text)
		if inj := plan.Initial(context.Background()); !inj.Empty() {
			h.fail(t, "a query after Shutdown delivered %v", inj.Docs)
		}
		return nil
	}
	p := &enginePlan{
		n: len(h.plans) + 1, plan: plan, text: text, script: s, cancel: cancel, queryAt: now,
		certain: certain, surfacedStart: maps(h.injected), live: true, given: map[memory.ID]bool{},
	}
	for _, id := range h.tr.ranking(text) {
		p.given[id] = true
	}
	for _, k := range s.keys {
		if id, ok := h.tr.keyID(k); ok {
			p.given[id] = true
		}
	}
	h.modelSelection(p)
	h.plans = append(h.plans, p)
	h.logf("plan %d = query %q script{delay %v fail %v keys %v}", p.n, text, s.delay, s.fail, s.keys)
	return p
}

func maps(m map[memory.ID]bool) map[memory.ID]bool {
	out := make(map[memory.ID]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// modelSelection is spec §4 for the plan: its pool is the tree minus the
// documents surfaced before it started; the selector's answer is valid if
// it names at most five distinct pool documents, else (or on failure or
// timeout) the lexical top five stand in; an empty answer selects nothing.
func (h *engineHarness) modelSelection(p *enginePlan) {
	for _, id := range h.tr.ranking(p.text) {
		if !p.surfacedStart[id] {
			p.ranking = append(p.ranking, id)
		}
	}
	inPool := map[string]memory.ID{}
	for i, d := range h.tr.docs {
		if !p.surfacedStart[d.ID] {
			inPool[h.tr.keys[i]] = d.ID
		}
	}
	fallback := p.ranking[:min(len(p.ranking), 5)]
	switch {
	case len(inPool) == 0:
		p.poolEmpty = true
		p.settleAt = p.queryAt
		return
	case h.detOnly:
		p.selection, p.strategy, p.settleAt = fallback, telemetry.StrategyHeuristic, p.queryAt
		return
	case p.script.delay >= model.SelectorTimeout:
		p.selection, p.strategy, p.settleAt = fallback, telemetry.StrategyHeuristic, p.queryAt.Add(model.SelectorTimeout)
		return
	}
	p.settleAt = p.queryAt.Add(p.script.delay)
	if p.script.fail {
		p.selection, p.strategy = fallback, telemetry.StrategyHeuristic
		return
	}
	var chosen []memory.ID
	valid := len(p.script.keys) <= 5
	for _, k := range p.script.keys {
		id, ok := inPool[k]
		if !ok || slices.Contains(chosen, id) {
			valid = false
			break
		}
		chosen = append(chosen, id)
	}
	switch {
	case !valid:
		p.selection, p.strategy = fallback, telemetry.StrategyHeuristic
	case len(chosen) == 0:
		p.selection, p.strategy = nil, telemetry.StrategyNone
	default:
		p.selection, p.strategy = chosen, telemetry.StrategyModel
	}
}

// settled reports whether the model says p has settled at now, and
// whether that is certain (a tie with the 30 s timeout is not).
func (h *engineHarness) settled(p *enginePlan, now time.Time) (settled, sure bool) {
	if p.poolEmpty || h.detOnly {
		return true, true
	}
	c := now.Compare(p.settleAt)
	return c > 0, c != 0
}

// remainder is the plan's selection minus everything injected since the
// last reset.
func (h *engineHarness) remainder(p *enginePlan) []memory.ID {
	var out []memory.ID
	for _, id := range p.selection {
		if !h.injected[id] {
			out = append(out, id)
		}
	}
	return out
}

// advance applies what happens in the background up to now: a plan past
// its initial point that settles with nothing to deliver ends at once.
func (h *engineHarness) advance(now time.Time) {
	p := h.current()
	if p == nil || !p.live || !p.initialPassed {
		return
	}
	settled, sure := h.settled(p, now)
	if !sure {
		p.certain = false
	}
	if settled && len(h.remainder(p)) == 0 {
		p.live = false
	}
}

// expectation is what the model predicts a delivery call returns.
type expectation struct {
	docs     []memory.ID
	phase    telemetry.Phase
	strategy telemetry.Strategy
}

// refinedOrDiscard is the model's refined delivery at a point.
func (h *engineHarness) refinedOrDiscard(p *enginePlan) expectation {
	p.live = false
	rem := h.remainder(p)
	if len(rem) == 0 {
		return expectation{}
	}
	return expectation{docs: rem, phase: telemetry.PhaseRefined, strategy: p.strategy}
}

func (h *engineHarness) initial(t *rapid.T, p *enginePlan, cancelled bool) {
	now := time.Now()
	h.advance(now)
	wasEnded := p.hostEnded
	var want expectation
	switch {
	case h.closed || !p.live:
	case cancelled: // the host gave up on the request: the plan is aborted
		p.live = false
	case p.initialPassed:
	default:
		p.initialPassed = true
		if settled, sure := h.settled(p, now); !sure {
			p.certain = false
		} else if settled {
			want = h.refinedOrDiscard(p)
		} else {
			var fast []memory.ID
			for _, id := range p.ranking {
				if len(fast) < 2 && !h.injected[id] {
					fast = append(fast, id)
				}
			}
			if len(fast) > 0 {
				want = expectation{docs: fast, phase: telemetry.PhaseFast, strategy: telemetry.StrategyHeuristic}
			}
		}
	}
	ctx := context.Background()
	if cancelled {
		c, cancel := context.WithCancel(ctx)
		cancel()
		ctx = c
		p.hostEnded = true
	}
	inj := p.plan.Initial(ctx)
	if waited := time.Since(now); waited > engineCeiling {
		h.fail(t, "plan %d: Initial blocked %v, more than the %v ceiling (liveness)", p.n, waited, engineCeiling)
	}
	h.logf("plan %d initial(cancelled=%v) -> %s", p.n, cancelled, h.show(inj))
	h.observe(t, p, "initial", inj, wasEnded)
	h.compare(t, p, "initial", inj, want)
	h.checkTelemetry(t, len(inj.Docs), "initial")
}

func (h *engineHarness) toolResult(t *rapid.T, p *enginePlan) {
	now := time.Now()
	h.advance(now)
	var want expectation
	if !h.closed && p.live && p.initialPassed {
		if settled, sure := h.settled(p, now); !sure {
			p.certain = false
		} else if settled {
			want = h.refinedOrDiscard(p)
		}
	}
	inj := p.plan.ToolResult()
	h.logf("plan %d tool_result -> %s", p.n, h.show(inj))
	h.observe(t, p, "tool_result", inj, p.hostEnded)
	h.compare(t, p, "tool_result", inj, want)
	h.checkTelemetry(t, len(inj.Docs), "tool_result")
}

func (h *engineHarness) end(t *rapid.T, p *enginePlan) {
	h.advance(time.Now())
	p.live, p.hostEnded = false, true
	p.plan.End()
	h.logf("plan %d end", p.n)
	synctest.Wait()
	h.checkTelemetry(t, 0, "end")
}

func (h *engineHarness) abort(t *rapid.T, p *enginePlan) {
	h.advance(time.Now())
	p.live, p.hostEnded = false, true
	p.plan.Abort()
	h.logf("plan %d abort", p.n)
	synctest.Wait()
	h.checkTelemetry(t, 0, "abort")
}

func (h *engineHarness) cancelCtx(t *rapid.T, p *enginePlan) {
	h.advance(time.Now())
	p.live, p.hostEnded = false, true
	p.cancel()
	synctest.Wait() // the engine's watch aborts the plan on its own goroutine
	h.logf("plan %d query context cancelled", p.n)
	h.checkTelemetry(t, 0, "cancel")
}

func (h *engineHarness) reset(t *rapid.T) {
	h.advance(time.Now())
	if p := h.current(); p != nil {
		p.live = false
	}
	for _, p := range h.plans {
		p.hostEnded = true
	}
	h.eng.Reset()
	if !h.closed {
		clear(h.injected)
	}
	h.logf("reset")
	h.checkTelemetry(t, 0, "reset")
}

func (h *engineHarness) shutdown(t *rapid.T) {
	for _, p := range h.plans {
		p.live, p.hostEnded = false, true
	}
	h.eng.Shutdown()
	h.closed = true
	h.logf("shutdown")
	h.checkTelemetry(t, 0, "shutdown")
}

// concurrent runs two to four host calls at the same instant on separate
// goroutines. Their order is the scheduler's, so the model stops
// predicting the plans they touch; the invariants still judge every
// result, and a plan started in the burst is modelled from the surfaced
// set the burst left (calls on older plans that delivered did so before
// the new query replaced them).
func (h *engineHarness) concurrent(t *rapid.T) {
	if len(h.plans) == 0 || h.closed {
		t.Skip("needs a plan and an open engine")
	}
	kinds := rapid.SliceOfN(rapid.SampledFrom([]string{"initial", "tool_result", "end", "abort", "cancel", "query"}), 2, 4).Draw(t, "burst")
	type result struct {
		p    *enginePlan
		kind string
		inj  recall.Injection
	}
	results := make([]result, len(kinds))
	var newText string
	var newScript engineScript
	targets := make([]*enginePlan, len(kinds))
	for i, k := range kinds {
		if k == "query" {
			if newText != "" {
				kinds[i] = "tool_result" // one query per burst keeps the new plan's model exact
			} else {
				newText = fmt.Sprintf("%s %s %d", rapid.SampledFrom(engineVocab).Draw(t, "burst_word"),
					rapid.StringOfN(rapid.RuneFrom([]rune("abcdefghijklmnopqrstuvwxyz")), 12, 12, -1).Draw(t, "burst_marker"), len(h.plans))
				newScript = h.drawScript(t)
				h.mu.Lock()
				h.scripts[newText] = newScript
				h.mu.Unlock()
				h.queryMarkers = append(h.queryMarkers, strings.Fields(newText)[1])
				continue
			}
		}
		targets[i] = h.pick(t)
	}
	now := time.Now()
	h.advance(now)
	wasEnded := map[*enginePlan]bool{}
	for _, p := range targets {
		if p != nil {
			wasEnded[p] = p.hostEnded
			p.certain = false
		}
	}
	var newPlan *recall.Plan
	var newCancel context.CancelFunc
	var wg sync.WaitGroup
	for i, k := range kinds {
		p := targets[i]
		wg.Go(func() {
			switch k {
			case "query":
				ctx, cancel := context.WithCancel(context.Background())
				newPlan, newCancel = h.eng.Query(ctx, recall.Query{Text: newText}), cancel
			case "initial":
				start := time.Now()
				results[i] = result{p, k, p.plan.Initial(context.Background())}
				if time.Since(start) > engineCeiling {
					results[i].kind = "initial_too_slow"
				}
			case "tool_result":
				results[i] = result{p, k, p.plan.ToolResult()}
			case "end":
				p.plan.End()
			case "abort":
				p.plan.Abort()
			case "cancel":
				p.cancel()
			}
		})
	}
	wg.Wait()
	synctest.Wait()
	h.logf("burst %v on plans %v", kinds, planNumbers(targets))
	total := 0
	for _, r := range results {
		if r.p == nil {
			continue
		}
		if r.kind == "initial_too_slow" {
			h.fail(t, "plan %d: Initial in a burst blocked past the ceiling (liveness)", r.p.n)
		}
		h.logf("  plan %d %s -> %s", r.p.n, r.kind, h.show(r.inj))
		h.observe(t, r.p, r.kind, r.inj, wasEnded[r.p])
		total += len(r.inj.Docs)
		if r.kind == "initial" {
			r.p.initialPassed = true
		}
		if r.inj.Phase == telemetry.PhaseRefined && !r.inj.Empty() {
			r.p.live = false
		}
	}
	for i, k := range kinds {
		if p := targets[i]; p != nil && (k == "end" || k == "abort" || k == "cancel") {
			p.live, p.hostEnded = false, true
		}
	}
	h.checkTelemetry(t, total, "burst")
	if newPlan != nil {
		prev := h.current()
		prev.live = false
		for _, p := range h.plans {
			p.hostEnded = true
		}
		p := &enginePlan{
			n: len(h.plans) + 1, plan: newPlan, text: newText, script: newScript, cancel: newCancel, queryAt: now,
			certain: true, surfacedStart: maps(h.injected), live: true, given: map[memory.ID]bool{},
		}
		for _, id := range h.tr.ranking(newText) {
			p.given[id] = true
		}
		for _, k := range newScript.keys {
			if id, ok := h.tr.keyID(k); ok {
				p.given[id] = true
			}
		}
		h.modelSelection(p)
		h.plans = append(h.plans, p)
		h.logf("  plan %d = query %q script{delay %v fail %v keys %v}", p.n, newText, newScript.delay, newScript.fail, newScript.keys)
	}
}

func planNumbers(ps []*enginePlan) []int {
	var out []int
	for _, p := range ps {
		if p != nil {
			out = append(out, p.n)
		} else {
			out = append(out, 0)
		}
	}
	return out
}

func (h *engineHarness) show(inj recall.Injection) string {
	if inj.Empty() {
		return "nothing"
	}
	var names []string
	for _, id := range inj.Docs {
		names = append(names, h.name(id))
	}
	return fmt.Sprintf("%s/%s %v", inj.Phase, inj.Strategy, names)
}

func (h *engineHarness) name(id memory.ID) string {
	for i, d := range h.tr.docs {
		if d.ID == id {
			return h.tr.keys[i]
		}
	}
	return string(id)
}

// observe checks one returned injection against the model-free invariants
// and records it. endedBefore says the host had ended, aborted or replaced
// the plan before the call.
func (h *engineHarness) observe(t *rapid.T, p *enginePlan, call string, inj recall.Injection, endedBefore bool) {
	t.Helper()
	if inj.Empty() {
		if inj.Text != "" {
			h.fail(t, "plan %d %s: an empty injection has text", p.n, call)
		}
		return
	}
	if len(inj.Docs) > recall.MaxPromptDocs {
		h.fail(t, "plan %d %s: %d documents in one prompt", p.n, call, len(inj.Docs))
	}
	if len(inj.Text) > recall.MaxPromptBytes {
		h.fail(t, "plan %d %s: %d bytes of text", p.n, call, len(inj.Text))
	}
	if n := headings(inj.Text); n != len(inj.Docs) {
		h.fail(t, "plan %d %s: %d document headings in the text for %d documents", p.n, call, n, len(inj.Docs))
	}
	switch inj.Phase {
	case telemetry.PhaseFast:
		switch {
		case len(inj.Docs) > recall.MaxFastDocs:
			h.fail(t, "plan %d %s: fast delivery of %d documents", p.n, call, len(inj.Docs))
		case call != "initial":
			h.fail(t, "plan %d: fast delivery from %s", p.n, call)
		case p.fast > 0 || p.refined > 0:
			h.fail(t, "plan %d: fast delivery after an earlier delivery of the plan", p.n)
		case endedBefore:
			h.fail(t, "plan %d: fast delivery after the host ended or replaced the plan", p.n)
		case inj.Strategy != telemetry.StrategyHeuristic:
			h.fail(t, "plan %d: fast delivery with strategy %v", p.n, inj.Strategy)
		}
		p.fast++
	case telemetry.PhaseRefined:
		if p.refined > 0 {
			h.fail(t, "plan %d %s: a second refined delivery", p.n, call)
		}
		if endedBefore {
			h.fail(t, "plan %d %s: refined delivery after the host ended or replaced the plan", p.n, call)
		}
		p.refined++
	default:
		h.fail(t, "plan %d %s: delivery with phase %v", p.n, call, inj.Phase)
	}
	for i, id := range inj.Docs {
		if !p.given[id] {
			h.fail(t, "plan %d %s: %s neither matches the plan's query nor was named by its selector (cross-query leakage)", p.n, call, h.name(id))
		}
		if h.injected[id] || slices.Contains(inj.Docs[:i], id) {
			h.fail(t, "plan %d %s: %s injected twice since the last reset", p.n, call, h.name(id))
		}
		h.injected[id] = true
	}
	h.injectedCount += len(inj.Docs)
}

// compare holds a certain plan's delivery to the model's prediction.
func (h *engineHarness) compare(t *rapid.T, p *enginePlan, call string, inj recall.Injection, want expectation) {
	t.Helper()
	if !p.certain {
		h.stats["uncertain_calls"]++
		return
	}
	h.stats["model_compared"]++
	if len(want.docs) > 0 {
		h.stats["model_compared_"+want.phase.String()]++
	}
	if !slices.Equal(inj.Docs, want.docs) || (len(want.docs) > 0 && (inj.Phase != want.phase || inj.Strategy != want.strategy)) {
		h.modelFail(t, "plan %d %s: got %s, model says %v %v %v", p.n, call, h.show(inj), want.phase, want.strategy, h.names(want.docs))
	}
}

func (h *engineHarness) names(ids []memory.ID) []string {
	var out []string
	for _, id := range ids {
		out = append(out, h.name(id))
	}
	return out
}

// headings counts document headings outside memory fences.
func headings(text string) int {
	n := 0
	fence := ""
	for _, l := range strings.Split(text, "\n") {
		switch {
		case fence != "":
			if c := strings.TrimRight(l, " "); len(c) >= len(fence) && strings.Trim(c, fence[:1]) == "" {
				fence = ""
			}
		case strings.HasSuffix(l, "memory") && len(l) > len("memory") && (l[0] == '`' || l[0] == '~'):
			fence = strings.TrimSuffix(l, "memory")
		case strings.HasPrefix(l, "## "):
			n++
		}
	}
	return n
}

// checkTelemetry checks the events recorded since the last check: the
// delivery events count exactly the docs the host calls just received,
// and every discard is well formed.
func (h *engineHarness) checkTelemetry(t *rapid.T, injected int, after string) {
	t.Helper()
	events := h.rec.Events()
	fresh := events[h.seenEvents:]
	h.seenEvents = len(events)
	counted := 0
	for _, e := range fresh {
		if e.Kind != telemetry.KindDelivery {
			continue
		}
		d := e.Delivery
		counted += d.Docs
		if h.stats != nil {
			h.stats[d.Phase.String()+"@"+d.Point.String()+"/"+d.Reason.String()]++
		}
		if (d.Point == telemetry.PointDiscarded) != (d.Reason != telemetry.ReasonNone) || (d.Point == telemetry.PointDiscarded && (d.Docs != 0 || d.Phase != telemetry.PhaseRefined)) {
			h.fail(t, "after %s: malformed delivery event %v", after, d)
		}
	}
	if counted != injected {
		h.fail(t, "after %s: delivery telemetry counts %d documents, the host received %d", after, counted, injected)
	}
}

// checkInvariants holds between any two actions.
func (h *engineHarness) checkInvariants(t *rapid.T) {
	logs := h.logs.String()
	for _, m := range append(slices.Clone(h.tr.markers), h.queryMarkers...) {
		if strings.Contains(logs, m) {
			h.fail(t, "serialized telemetry holds the marker %q", m)
		}
	}
	if strings.Contains(logs, h.tr.root) || strings.Contains(logs, ".md") || strings.Contains(logs, "note-") {
		h.fail(t, "serialized telemetry holds a path:\n%s", logs)
	}
	for _, e := range h.rec.Events() {
		if s := e.String(); strings.Contains(s, "/") || strings.Contains(s, "note") {
			h.fail(t, "telemetry event %q holds a path", s)
		}
	}
}

// close shuts the engine down and checks the session's totals.
func (h *engineHarness) close(t *rapid.T) {
	if !h.closed {
		h.eng.Shutdown()
		h.closed = true
	}
	synctest.Wait()
	for _, p := range h.plans {
		p.cancel()
	}
	if t.Failed() {
		return // an action failed: its report is the one that matters
	}
	h.checkTelemetry(t, 0, "final shutdown")
	h.checkInvariants(t)
	terminal, counted, selections := 0, 0, 0
	for _, e := range h.rec.Events() {
		switch e.Kind {
		case telemetry.KindDelivery:
			counted += e.Delivery.Docs
			if e.Delivery.Phase == telemetry.PhaseRefined {
				terminal++
			}
		case telemetry.KindSelection:
			selections++
		}
	}
	if terminal != len(h.plans) {
		h.fail(t, "%d terminal delivery events for %d plans", terminal, len(h.plans))
	}
	if counted != h.injectedCount {
		h.fail(t, "delivery telemetry counts %d documents, %d were injected", counted, h.injectedCount)
	}
	if selections > len(h.plans) {
		h.fail(t, "%d selection events for %d plans", selections, len(h.plans))
	}
}
