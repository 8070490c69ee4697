package eval

import (
	"cmp"
	"slices"
	"time"

	"github.com/memrecall/memrecall/fsm"
)

// replaySession plays the cases as consecutive turns of one session on
// the lifecycle core, at the event times of the chosen design, and returns
// what the host injected in each turn. Turns follow each other userGap
// apart; every event of every turn is stepped in time order, so a settle
// that comes after its turn ended lands while the next query is open, as
// a late result would — the core must drop it.
//
// memrecall: the deterministic result is published at once (the engine
// publishes a warm ranking in well under a millisecond, and at fake time
// zero under synctest), so the initial wait ends there, with the fast
// delivery. zero-wait: the first request is built at the query's start,
// before any result exists, so there is nothing fast to deliver. Both then
// see the settle after the latency and the turn's tool-result points and
// end.
func replaySession(memrecall bool, inputs []caseInputs, sc scenario, alternate bool) []turnResult {
	type step struct {
		at   time.Duration
		turn int
		ev   func(fsm.PlanID) fsm.Event
		to   int // 0: nothing to collect, 1: initial, 2: later
	}
	var steps []step
	t0 := time.Duration(0)
	for i, in := range inputs {
		at := t0
		ranking, selection := docIDs(in.ranking), docIDs(in.selection)
		if memrecall {
			steps = append(steps, step{at, i, func(p fsm.PlanID) fsm.Event { return fsm.DeterministicPublished(p, at, ranking, 0, 0) }, 0})
		}
		steps = append(steps,
			step{at, i, func(p fsm.PlanID) fsm.Event { return fsm.InitialPoint(p, at) }, 1},
			step{at + sc.latency, i, func(p fsm.PlanID) fsm.Event {
				return fsm.SelectorSettled(p, at+sc.latency, sc.latency, selection)
			}, 0})
		end := at
		if turnKind(sc.turn, i, alternate) == TurnToolUsing {
			for range toolCalls {
				end += modelStep + toolRun
				point := end
				steps = append(steps, step{point, i, func(p fsm.PlanID) fsm.Event { return fsm.ToolResultPoint(p, point) }, 2})
			}
		}
		end += modelStep
		steps = append(steps, step{end, i, func(p fsm.PlanID) fsm.Event { return fsm.TurnEnded(p, end) }, 0})
		t0 = end + userGap
	}
	// Stable: at equal times the host's order above stands.
	slices.SortStableFunc(steps, func(a, b step) int { return cmp.Compare(a.at, b.at) })

	s := fsm.NewSession()
	plans := make([]fsm.PlanID, len(inputs))
	started := 0
	out := make([]turnResult, len(inputs))
	for _, st := range steps {
		for started <= st.turn {
			// A turn's query starts at its first event; starting it
			// discards the previous plan (new_query).
			plans[started] = s.Step(fsm.QueryStarted(st.at)).Plan
			started++
		}
		o := s.Step(st.ev(plans[st.turn]))
		for _, d := range o.Deliver.Docs {
			switch st.to {
			case 1:
				out[st.turn].initial = append(out[st.turn].initial, string(d))
			case 2:
				out[st.turn].later = append(out[st.turn].later, string(d))
			}
		}
	}
	for i, in := range inputs {
		out[i].crossed = crossedIDs(in, out[i])
	}
	return out
}
