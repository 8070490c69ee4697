package fsm

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/memrecall/memrecall/telemetry"
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

// TestStepAgreesWithTable fires the declared stateless table beside Step
// on random event sequences: every event Step applies must be permitted
// by the table, land in the state the table names, and have the effect
// the table's row names. Events Step drops must change nothing.
func TestStepAgreesWithTable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := NewSession()
		var dest State
		moved := false
		shadow := newShadow(func() State { return s.cur.state }, func(st State) { dest, moved = st, true })
		var now time.Duration
		n := rapid.IntRange(1, 100).Draw(t, "events")
		for range n {
			ev := drawEvent(t, s, &now)
			pre := s.cur.state
			preClosed := s.closed
			in := &guardInput{s: s, ev: ev}
			moved = false
			fireErr := shadow.FireCtx(context.Background(), ev.Trigger, in)
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
			if fireErr != nil {
				t.Fatalf("%v in %v: Step applied an event the table does not permit: %v", ev, pre, fireErr)
			}
			switch {
			case moved:
				if s.cur.state != dest {
					t.Fatalf("%v in %v: Step went to %v, the table to %v", ev, pre, s.cur.state, dest)
				}
			case in.effect != "":
				if s.cur.state != pre {
					t.Fatalf("%v in %v: table row is internal (%s) but Step went to %v", ev, pre, in.effect, s.cur.state)
				}
				checkEffect(t, s, ev, out, in.effect)
			default: // ignored
				if s.cur.state != pre || !out.Deliver.Empty() || len(out.Telemetry) > 0 || out.Closed != 0 {
					t.Fatalf("%v in %v: table ignores the event but Step acted: %+v", ev, pre, out)
				}
			}
		}
	})
}

// checkEffect verifies that Step had the effect an internal row names.
func checkEffect(t *rapid.T, s *Session, ev Event, out Output, effect string) {
	ok := true
	switch effect {
	case "recordRanking":
		ok = s.cur.published && len(out.Telemetry) == 0
	case "recordSelection":
		ok = s.cur.settled && len(out.Telemetry) == 1 && out.Telemetry[0].Kind == telemetry.KindSelection
	case "passInitialPoint":
		ok = s.cur.initialPassed && out.Deliver.Empty()
	case "clearSurfaced":
		ok = len(s.surfaced) == 0
	case "closeSession":
		ok = s.closed
	default:
		ok = false
	}
	if !ok {
		t.Fatalf("%v: Step did not %s: %+v", ev, effect, out)
	}
}

// TestTableRowsAreNamed keeps the table readable as a diagram: guards
// and actions are named functions (closures print as func1), and an
// unguarded row is alone for its state and trigger. Overlapping guards
// need no test of their own: stateless panics when two hold at once, and
// the random firing above reaches them.
func TestTableRowsAreNamed(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range table() {
		key := fmt.Sprintf("%v/%v", e.from, e.trigger)
		if e.guard == nil && seen[key] {
			t.Errorf("%s: an unguarded row next to other rows", key)
		}
		seen[key] = true
		if e.guard != nil && funcName(e.guard) == "func1" {
			t.Errorf("%s: guard is a closure; name it", key)
		}
		if e.kind == edgeInternal && e.action == nil {
			t.Errorf("%s: internal row without an action", key)
		}
	}
}
