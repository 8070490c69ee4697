package props

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/telemetry"
	"pgregory.net/rapid"
)

// fsmUniverse is small on purpose: rankings and selections of different
// plans overlap often, so exclusion and leakage are exercised.
var fsmUniverse = []fsm.DocID{"d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"}

// TestFSMLifecycle is the model-based property suite over fsm.Session.
// Each rapid action steps one event into the real session and into the
// plain model (fsmModel) and compares them; independently of the model,
// it checks the lifecycle's invariants on what the session outputs:
//
//   - no cross-query leakage: a delivery belongs to the plan its event
//     named, which is the current plan, and holds only documents given to
//     that plan;
//   - no double injection between resets;
//   - bounded deliveries: at most MaxRelevantDocs, fast at most
//     MaxFastDocs;
//   - fast only at the first initial point of a live plan with no earlier
//     delivery — so never after refined and never once cancelled;
//   - exactly one terminal outcome per ended plan, each recorded by exactly
//     one telemetry event, and at most one selection event per plan;
//   - delivery telemetry matches the delivery, and the document counts of
//     all delivery events add up to the documents injected;
//   - liveness: a tool-result point on a live, settled plan with a
//     remainder delivers it;
//   - the session's state, current plan and surfaced set equal the model's.
//
// Run with RAPID_CHECKS=N (rapid v1.3.0 reads it) for more checks. A
// failure prints the event script that reproduces it.
func TestFSMLifecycle(t *testing.T) {
	outcomes := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		h := newFSMHarness(t)
		h.outcomes = outcomes
		// Most sessions start with a query; some stay idle a while, so
		// events before any plan are exercised too.
		if rapid.IntRange(0, 3).Draw(t, "starts_idle_roll") != 3 {
			h.step(t, fsm.QueryStarted(h.tick(t)))
		}
		t.Repeat(h.actions())
	})
	// How often each outcome was reached, to see that the generator
	// reaches them all (go test -v).
	t.Logf("outcomes over all runs: %v", outcomes)
}

// actions returns one rapid action per event kind. rapid picks actions
// uniformly, and a skipped action counts against the run's length, so
// the weights are given by listing an action several times (name,
// name/2, …): events that move a plan forward come up more often than
// events that end it.
func (h *fsmHarness) actions() map[string]func(*rapid.T) {
	actions := map[string]func(*rapid.T){"": h.checkInvariants}
	add := func(name string, weight int, f func(*rapid.T)) {
		for i := 1; i <= weight; i++ {
			key := name
			if i > 1 {
				key = fmt.Sprintf("%s/%d", name, i)
			}
			actions[key] = f
		}
	}
	add("query_started", 2, func(t *rapid.T) {
		h.step(t, fsm.QueryStarted(h.tick(t)))
	})
	add("deterministic_published", 3, func(t *rapid.T) {
		h.step(t, fsm.DeterministicPublished(h.sys.Current(), h.tick(t), h.docs(t, "ranking", 8),
			rapid.IntRange(0, 500).Draw(t, "scanned"), time.Duration(rapid.IntRange(0, 50).Draw(t, "scan_ms"))*time.Millisecond))
	})
	add("selector_settled", 3, func(t *rapid.T) {
		at := h.tick(t)
		h.step(t, fsm.SelectorSettled(h.sys.Current(), at, h.took(t, at), h.docs(t, "selection", 9)))
	})
	add("selector_failed", 1, func(t *rapid.T) {
		at := h.tick(t)
		h.step(t, fsm.SelectorFailed(h.sys.Current(), at, h.took(t, at)))
	})
	add("initial_point", 3, func(t *rapid.T) {
		h.step(t, fsm.InitialPoint(h.sys.Current(), h.tick(t)))
	})
	add("tool_result_point", 4, func(t *rapid.T) {
		h.step(t, fsm.ToolResultPoint(h.sys.Current(), h.tick(t)))
	})
	add("turn_ended", 2, func(t *rapid.T) {
		h.step(t, fsm.TurnEnded(h.endingPlan(t), h.tick(t)))
	})
	add("abort", 1, func(t *rapid.T) {
		h.step(t, fsm.Abort(h.endingPlan(t), h.tick(t)))
	})
	add("reset", 1, func(t *rapid.T) {
		h.step(t, fsm.Reset(h.tick(t)))
	})
	add("shutdown", 1, func(t *rapid.T) {
		if len(h.script) < 10 {
			t.Skip("shutdown only after ten events, or most runs would end early")
		}
		h.step(t, fsm.Shutdown(h.tick(t)))
	})
	add("old_plan_event", 2, func(t *rapid.T) {
		plan := h.otherPlan(t)
		at := h.tick(t)
		var ev fsm.Event
		switch rapid.IntRange(0, 6).Draw(t, "old_trigger") {
		case 0:
			ev = fsm.DeterministicPublished(plan, at, h.docs(t, "old_ranking", 8), 10, time.Millisecond)
		case 1:
			ev = fsm.SelectorSettled(plan, at, time.Second, h.docs(t, "old_selection", 9))
		case 2:
			ev = fsm.SelectorFailed(plan, at, time.Second)
		case 3:
			ev = fsm.InitialPoint(plan, at)
		case 4:
			ev = fsm.ToolResultPoint(plan, at)
		case 5:
			ev = fsm.TurnEnded(plan, at)
		default:
			ev = fsm.Abort(plan, at)
		}
		h.step(t, ev)
	})
	return actions
}

// fsmHarness holds the system, the model and what has been observed.
type fsmHarness struct {
	sys    *fsm.Session
	model  *fsmModel
	now    time.Duration
	script []string

	// Observed from the events sent and the outputs received only.
	queryAt        map[fsm.PlanID]time.Duration
	given          map[fsm.PlanID]map[fsm.DocID]bool // documents sent with events naming the plan
	injected       map[fsm.DocID]bool                // since the last reset
	surfacedSeen   []surfacedSnapshot                // every SurfacedDocs answer so far
	delivered      map[fsm.PlanID]int                // delivery events (not discards)
	terminal       map[fsm.PlanID]int                // refined deliveries and discards
	selections     map[fsm.PlanID]int
	initialSeen    map[fsm.PlanID]bool // an initial point of the plan was applied
	injectedCount  int
	telemetryCount int
	outcomes       map[string]int // delivery events by phase@point/reason, across runs
	invariantsOnly bool           // compare with the model only as an oracle for preconditions
}

func newFSMHarness(t *rapid.T) *fsmHarness {
	return &fsmHarness{
		sys:         newFSMSession(t),
		model:       newFSMModel(),
		queryAt:     map[fsm.PlanID]time.Duration{},
		given:       map[fsm.PlanID]map[fsm.DocID]bool{},
		injected:    map[fsm.DocID]bool{},
		delivered:   map[fsm.PlanID]int{},
		terminal:    map[fsm.PlanID]int{},
		selections:  map[fsm.PlanID]int{},
		initialSeen: map[fsm.PlanID]bool{},
		// Read per run, not at package level: the mutation runner sets it
		// for a subprocess.
		invariantsOnly: os.Getenv(fsmInvariantsOnlyEnv) == "1",
	}
}

// otherPlan draws a plan that is not the current one: replaced, or never
// started.
func (h *fsmHarness) otherPlan(t *rapid.T) fsm.PlanID {
	cur := uint64(h.sys.Current())
	return fsm.PlanID(rapid.Uint64Range(0, cur+2).Filter(func(p uint64) bool { return p != cur }).Draw(t, "other_plan"))
}

// endingPlan is the plan of a turn end or abort: the current plan one
// time in four, otherwise another one. rapid favours the first and last
// action names (abort, turn_ended), which would end most plans before
// anything is delivered; late ends of old plans are worth testing anyway.
func (h *fsmHarness) endingPlan(t *rapid.T) fsm.PlanID {
	if rapid.IntRange(0, 3).Draw(t, "ends_current_roll") == 3 {
		return h.sys.Current()
	}
	return h.otherPlan(t)
}

// tick advances the clock by a drawn step and returns the new time.
func (h *fsmHarness) tick(t *rapid.T) time.Duration {
	h.now += time.Duration(rapid.IntRange(0, 3000).Draw(t, "after_ms")) * time.Millisecond
	return h.now
}

// took draws a selector duration that fits between the query and at.
func (h *fsmHarness) took(t *rapid.T, at time.Duration) time.Duration {
	return time.Duration(rapid.Int64Range(0, int64(max(at-h.queryAt[h.sys.Current()], 0))).Draw(t, "took_ns"))
}

// docs draws a document list of up to n entries, empty one time in five
// (rapid's bias to small sizes would make empty lists the common case).
func (h *fsmHarness) docs(t *rapid.T, label string, n int) []fsm.DocID {
	if rapid.IntRange(1, 5).Draw(t, label+"_empty_roll") == 1 {
		return nil
	}
	return rapid.SliceOfN(rapid.SampledFrom(fsmUniverse), 1, n).Draw(t, label)
}

// fail stops the run with msg and the event script so far, in the form
// fsm/testdata scenario scripts use.
func (h *fsmHarness) fail(t *rapid.T, format string, args ...any) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Found by props.TestFSMLifecycle. Paste into fsm/testdata/<name>.txt,\n")
	b.WriteString("# then: go test ./fsm -run TestScripts -rewrite\n")
	for _, l := range h.script {
		b.WriteString(l + "\n----\n\n")
	}
	t.Fatalf("%s\n\nevent script:\n%s", fmt.Sprintf(format, args...), b.String())
}

// modelFail is fail for a disagreement with the model. With
// MEMRECALL_FSM_INVARIANTS_ONLY=1 it is ignored, so the mutation runner
// can show which defects the model-free invariants catch on their own.
func (h *fsmHarness) modelFail(t *rapid.T, format string, args ...any) {
	t.Helper()
	if !h.invariantsOnly {
		h.fail(t, format, args...)
	}
}

// step applies ev to system and model and checks the output.
func (h *fsmHarness) step(t *rapid.T, ev fsm.Event) {
	t.Helper()
	h.script = append(h.script, ev.String())
	if ev.Trigger == fsm.TriggerDeterministicPublished || ev.Trigger == fsm.TriggerSelectorSettled {
		if h.given[ev.Plan] == nil {
			h.given[ev.Plan] = map[fsm.DocID]bool{}
		}
		for _, d := range ev.Docs {
			h.given[ev.Plan][d] = true
		}
	}
	preCurrent := h.sys.Current()
	pre := h.model.current()
	// Liveness precondition, from the model's state before the step.
	mustDeliver := ev.Trigger == fsm.TriggerToolResultPoint && ev.Plan == preCurrent && open(pre) &&
		pre.initialPassed && pre.settled && len(h.model.distinct(pre.selection, fsm.MaxRelevantDocs, true)) > 0
	live := pre != nil && ev.Plan == preCurrent && h.terminal[preCurrent] == 0 && !h.sys.Closed()
	firstInitial := !h.initialSeen[ev.Plan]

	want := h.model.apply(ev)
	out := h.sys.Step(ev)

	// The model.
	if out.Dropped != want.dropped {
		h.modelFail(t, "%v: dropped=%v, model says %v", ev, out.Dropped, want.dropped)
	}
	if got, w := h.sys.State(), h.model.state(); got != w || out.State != got {
		h.modelFail(t, "%v: state %v (output says %v), model says %v", ev, got, out.State, w)
	}
	if !slices.Equal(out.Deliver.Docs, want.deliver) {
		h.modelFail(t, "%v: delivered %v, model says %v", ev, out.Deliver.Docs, want.deliver)
	}
	if len(want.deliver) > 0 && (out.Deliver.Phase != want.phase || out.Deliver.Point != want.point || out.Deliver.Strategy != want.strategy) {
		h.modelFail(t, "%v: delivered %v@%v %v, model says %v@%v %v", ev, out.Deliver.Phase, out.Deliver.Point,
			out.Deliver.Strategy, want.phase, want.point, want.strategy)
	}
	wantClosed := want.discarded
	if want.phase == telemetry.PhaseRefined && len(want.deliver) > 0 {
		wantClosed = preCurrent
	}
	if out.Closed != wantClosed {
		h.modelFail(t, "%v: closed plan %d, model says %d", ev, out.Closed, wantClosed)
	}
	if ev.Trigger == fsm.TriggerQueryStarted && !out.Dropped {
		h.queryAt[out.Plan] = ev.At
	}

	// Deliveries.
	if d := out.Deliver; !d.Empty() {
		if ev.Trigger == fsm.TriggerQueryStarted || ev.Trigger == fsm.TriggerReset || ev.Trigger == fsm.TriggerShutdown {
			h.fail(t, "%v: a session-wide event delivered %v", ev, d.Docs)
		}
		if out.Plan != ev.Plan || out.Plan != preCurrent {
			h.fail(t, "%v: delivery for plan %d; event named %d, current was %d", ev, out.Plan, ev.Plan, preCurrent)
		}
		for i, doc := range d.Docs {
			if !h.given[out.Plan][doc] {
				h.fail(t, "%v: %s was never given to plan %d (cross-query leakage)", ev, doc, out.Plan)
			}
			if h.injected[doc] || slices.Contains(d.Docs[:i], doc) {
				h.fail(t, "%v: %s injected twice since the last reset", ev, doc)
			}
			h.injected[doc] = true
		}
		h.injectedCount += len(d.Docs)
		if len(d.Docs) > fsm.MaxRelevantDocs {
			h.fail(t, "%v: %d documents in one prompt", ev, len(d.Docs))
		}
		if d.Phase == telemetry.PhaseFast {
			switch {
			case len(d.Docs) > fsm.MaxFastDocs:
				h.fail(t, "%v: fast delivery of %d documents", ev, len(d.Docs))
			case ev.Trigger != fsm.TriggerInitialPoint || d.Point != telemetry.PointInitial:
				h.fail(t, "%v: fast delivery outside the initial point", ev)
			case !live || !firstInitial:
				h.fail(t, "%v: fast delivery for a plan that ended or passed its initial point", ev)
			case h.delivered[out.Plan] > 0:
				h.fail(t, "%v: fast delivery after an earlier delivery of the plan", ev)
			case d.Strategy != telemetry.StrategyHeuristic:
				h.fail(t, "%v: fast delivery with strategy %v", ev, d.Strategy)
			}
		}
	}
	if mustDeliver && out.Deliver.Empty() {
		h.fail(t, "%v: a live settled plan with a remainder delivered nothing at a tool result", ev)
	}
	if ev.Trigger == fsm.TriggerInitialPoint && !out.Dropped && live {
		h.initialSeen[ev.Plan] = true
	}

	// Telemetry.
	if out.Dropped && len(out.Telemetry) > 0 {
		h.fail(t, "%v: dropped event emitted %v", ev, out.Telemetry)
	}
	deliveries := 0
	for _, e := range out.Telemetry {
		switch e.Kind {
		case telemetry.KindSelection:
			if ev.Trigger != fsm.TriggerSelectorSettled {
				h.fail(t, "%v: selection event from a %v", ev, ev.Trigger)
			}
			if h.selections[out.Plan]++; h.selections[out.Plan] > 1 {
				h.fail(t, "%v: second selection event for plan %d", ev, out.Plan)
			}
			if e.Selection.Selected > fsm.MaxRelevantDocs {
				h.fail(t, "%v: %d documents selected", ev, e.Selection.Selected)
			}
			if want.selection == nil || e.Selection != *want.selection {
				h.modelFail(t, "%v: %v, model says %v", ev, e.Selection, want.selection)
			}
		case telemetry.KindDelivery:
			dl := e.Delivery
			if h.outcomes != nil {
				h.outcomes[dl.Phase.String()+"@"+dl.Point.String()+"/"+dl.Reason.String()]++
			}
			h.telemetryCount += dl.Docs
			plan := out.Plan
			if dl.Point == telemetry.PointDiscarded {
				plan = out.Closed
				if plan == 0 || dl.Reason == telemetry.ReasonNone || dl.Phase != telemetry.PhaseRefined {
					h.fail(t, "%v: malformed discard %v (closed plan %d)", ev, dl, out.Closed)
				}
				if dl.Reason != want.reason {
					h.modelFail(t, "%v: discard reason %v, model says %v", ev, dl.Reason, want.reason)
				}
			} else {
				deliveries++
				d := out.Deliver
				if dl.Phase != d.Phase || dl.Point != d.Point || dl.Strategy != d.Strategy || dl.Docs != len(d.Docs) || dl.Reason != telemetry.ReasonNone {
					h.fail(t, "%v: telemetry %v does not describe the delivery %v@%v %v %v", ev, dl, d.Phase, d.Point, d.Strategy, d.Docs)
				}
				h.delivered[plan]++
			}
			if dl.Latency != ev.At-h.queryAt[plan] {
				h.fail(t, "%v: latency %v, want %v", ev, dl.Latency, ev.At-h.queryAt[plan])
			}
			if dl.Phase == telemetry.PhaseRefined {
				if h.terminal[plan]++; h.terminal[plan] > 1 {
					h.fail(t, "%v: second terminal outcome for plan %d", ev, plan)
				}
			}
		default:
			h.fail(t, "%v: telemetry of kind %v", ev, e.Kind)
		}
	}
	if wantN := min(len(out.Deliver.Docs), 1); deliveries != wantN {
		h.fail(t, "%v: %d delivery events for %d deliveries", ev, deliveries, wantN)
	}
	if (want.selection != nil) != slices.ContainsFunc(out.Telemetry, func(e telemetry.Event) bool { return e.Kind == telemetry.KindSelection }) {
		h.modelFail(t, "%v: selection event presence differs from the model", ev)
	}
	if ev.Trigger == fsm.TriggerReset && !out.Dropped {
		clear(h.injected)
	}
}

// checkInvariants holds between any two events.
func (h *fsmHarness) checkInvariants(t *rapid.T) {
	cur := h.sys.Current()
	if int(cur) != len(h.model.plans) || h.sys.State() != h.model.state() || h.sys.Closed() != h.model.closed {
		h.modelFail(t, "session at plan %d %v closed=%v, model at plan %d %v closed=%v",
			cur, h.sys.State(), h.sys.Closed(), len(h.model.plans), h.model.state(), h.model.closed)
	}
	for p := fsm.PlanID(1); p < cur; p++ {
		if h.terminal[p] != 1 {
			h.fail(t, "replaced plan %d has %d terminal outcomes, want 1", p, h.terminal[p])
		}
	}
	if cur != 0 {
		want := 0
		if h.sys.State().Terminal() {
			want = 1
		}
		if h.terminal[cur] != want {
			h.fail(t, "current plan %d is %v with %d terminal outcomes", cur, h.sys.State(), h.terminal[cur])
		}
	}
	if h.telemetryCount != h.injectedCount {
		h.fail(t, "delivery telemetry counts %d documents, %d were injected", h.telemetryCount, h.injectedCount)
	}
	var want []fsm.DocID
	for _, d := range fsmUniverse {
		if h.sys.Surfaced(d) != h.injected[d] {
			h.fail(t, "surfaced(%s)=%v, but injected since the last reset=%v", d, h.sys.Surfaced(d), h.injected[d])
		}
		if h.injected[d] {
			want = append(want, d)
		}
	}
	slices.Sort(want)
	if got := h.sys.SurfacedDocs(); !slices.Equal(got, want) {
		h.fail(t, "SurfacedDocs()=%v, want the injected documents in order %v", got, want)
	}
	// A slice SurfacedDocs returned earlier is a snapshot the engine
	// keeps for a whole plan: later steps must not change it.
	for _, old := range h.surfacedSeen {
		if !slices.Equal(old.docs, old.copy) {
			h.fail(t, "a SurfacedDocs slice changed after it was returned: was %v, now %v", old.copy, old.docs)
		}
	}
	h.surfacedSeen = append(h.surfacedSeen, surfacedSnapshot{h.sys.SurfacedDocs(), slices.Clone(h.sys.SurfacedDocs())})
}

// surfacedSnapshot is a slice SurfacedDocs returned, with a copy of its
// contents then.
type surfacedSnapshot struct{ docs, copy []fsm.DocID }
