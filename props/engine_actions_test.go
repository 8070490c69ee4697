package props

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing/synctest"
	"time"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/recall"
	"github.com/memrecall/memrecall/telemetry"
)

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
	return h.track(plan, text, s, cancel, now, certain, "")
}

// track builds the model of a plan the host just started and adds it to
// h.plans; indent prefixes its log line.
func (h *engineHarness) track(plan *recall.Plan, text string, s engineScript, cancel context.CancelFunc, now time.Time, certain bool, indent string) *enginePlan {
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
	h.logf("%splan %d = query %q script{delay %v fail %v keys %v}", indent, p.n, text, s.delay, s.fail, s.keys)
	return p
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
	// Exact on the bubble's fake clock (see engineCeiling).
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

func (h *engineHarness) end(t *rapid.T, p *enginePlan) { h.hostStop(t, p, "end", p.plan.End) }

func (h *engineHarness) abort(t *rapid.T, p *enginePlan) { h.hostStop(t, p, "abort", p.plan.Abort) }

// hostStop ends p from the host's side by calling stop (its plan's End or
// Abort), then checks that no delivery followed.
func (h *engineHarness) hostStop(t *rapid.T, p *enginePlan, what string, stop func()) {
	h.advance(time.Now())
	p.live, p.hostEnded = false, true
	stop()
	h.logf("plan %d %s", p.n, what)
	synctest.Wait()
	h.checkTelemetry(t, 0, what)
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
		h.track(newPlan, newText, newScript, newCancel, now, true, "  ")
	}
}
