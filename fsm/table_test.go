package fsm

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// drawEvent draws an event that is plausible for s: mostly for the
// current plan, sometimes for an old or unknown one, at a time after now.
func drawEvent(t *rapid.T, s *Session, now *time.Duration) Event {
	*now += time.Duration(rapid.Int64Range(0, int64(2*time.Second)).Draw(t, "dt"))
	plan := s.Current()
	if rapid.IntRange(0, 9).Draw(t, "stale") == 0 {
		plan = PlanID(rapid.Uint64Range(0, uint64(plan)+1).Draw(t, "plan"))
	}
	docs := func(label string) []DocID {
		return rapid.SliceOfN(rapid.SampledFrom([]DocID{"a", "b", "c", "d", "e", "f"}), 0, 7).Draw(t, label)
	}
	// Weighted so that plans get far before a shutdown ends the session.
	switch w := rapid.IntRange(0, 99).Draw(t, "trigger"); {
	case w < 12:
		return QueryStarted(*now)
	case w < 27:
		return DeterministicPublished(plan, *now, docs("ranking"), rapid.IntRange(0, 100).Draw(t, "scanned"), time.Millisecond)
	case w < 37:
		return SelectorSettled(plan, *now, time.Second, docs("selection"))
	case w < 42:
		return SelectorFailed(plan, *now, time.Second)
	case w < 57:
		return InitialPoint(plan, *now)
	case w < 72:
		return ToolResultPoint(plan, *now)
	case w < 82:
		return TurnEnded(plan, *now)
	case w < 89:
		return Reset(*now)
	case w < 97:
		return Abort(plan, *now)
	default:
		return Shutdown(*now)
	}
}

// TestStepAgreesWithTable fires the stateless machine configured from
// the rows beside Step on random event sequences. Before each step
// exactly one row of the current state and trigger must have a guard that
// holds (guards are exclusive and cover every case); Step must land in
// that row's state with its progress added, act only when the row has an
// action, and stateless, firing the same rows, must permit the event and
// name the same state. Events Step drops must change nothing.
func TestStepAgreesWithTable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := NewSession()
		var dest State
		moved := false
		shadow := newShadow(func() State { return s.cur.state }, func(st State) { dest, moved = st, true })
		var now time.Duration
		n := rapid.IntRange(1, 100).Draw(t, "events")
		ctx := context.Background()
		for range n {
			ev := drawEvent(t, s, &now)
			pre, preProgress, prePlan := s.cur.state, s.cur.progress, s.cur.id
			preClosed := s.closed
			in := &guardInput{s: s, ev: ev}
			var match []*row
			for i := range lifecycle[pre] {
				r := &lifecycle[pre][i]
				if r.on == ev.Trigger && (r.guard == nil || r.guard(ctx, in)) {
					match = append(match, r)
				}
			}
			moved = false
			fireErr := shadow.FireCtx(ctx, ev.Trigger, in)
			out := s.Step(ev)

			if out.Dropped {
				if s.cur.state != pre || !out.Deliver.Empty() || len(out.Telemetry) > 0 || out.Closed != 0 {
					t.Fatalf("%v: dropped event changed the session: %+v", ev, out)
				}
				continue
			}
			if preClosed {
				t.Fatalf("%v: applied after shutdown", ev)
			}
			if len(match) != 1 {
				t.Fatalf("%v in %v: %d rows hold, want exactly one", ev, pre, len(match))
			}
			r := match[0]
			if fireErr != nil {
				t.Fatalf("%v in %v: stateless refuses what Step applied: %v", ev, pre, fireErr)
			}
			if s.cur.state != r.to || out.State != r.to {
				t.Fatalf("%v in %v: Step went to %v (output %v), the row to %v", ev, pre, s.cur.state, out.State, r.to)
			}
			if moved && dest != r.to {
				t.Fatalf("%v in %v: stateless went to %v, the row to %v", ev, pre, dest, r.to)
			}
			if newPlan := s.cur.id != prePlan; !newPlan && s.cur.progress != preProgress|r.sets {
				t.Fatalf("%v in %v: progress %b, want %b|%b", ev, pre, s.cur.progress, preProgress, r.sets)
			}
			if r.action == nil && (!out.Deliver.Empty() || len(out.Telemetry) > 0 || out.Closed != 0) {
				t.Fatalf("%v in %v: the row ignores the event but Step acted: %+v", ev, pre, out)
			}
		}
	})
}

// TestTableRowsAreNamed keeps the table readable as a diagram: guards
// and actions are named functions (closures print as func1), an unguarded
// row is alone for its state and trigger, every state has a row for every
// trigger, and only a new plan may come back to pending from elsewhere.
func TestTableRowsAreNamed(t *testing.T) {
	for _, from := range States {
		seen := map[Trigger]int{}
		unguarded := map[Trigger]bool{}
		for i := range lifecycle[from] {
			r := &lifecycle[from][i]
			key := fmt.Sprintf("%v/%v", from, r.on)
			seen[r.on]++
			if r.guard == nil {
				unguarded[r.on] = true
			}
			if r.guard != nil && strings.HasPrefix(funcName(r.guard), "func") {
				t.Errorf("%s: guard is a closure; name it", key)
			}
			if r.action != nil && strings.HasPrefix(funcName(r.action), "func") {
				t.Errorf("%s: action is a closure; name it", key)
			}
			if r.to == StatePending && from != StatePending && r.on != TriggerQueryStarted {
				t.Errorf("%s: only a new query opens a pending plan", key)
			}
		}
		for _, tr := range Triggers {
			if from == StateIdle && !tr.sessionWide() {
				continue // no plan yet: Step drops plan events as stale
			}
			if seen[tr] == 0 {
				t.Errorf("%v/%v: no row", from, tr)
			}
			if unguarded[tr] && seen[tr] > 1 {
				t.Errorf("%v/%v: an unguarded row next to other rows", from, tr)
			}
		}
	}
}
