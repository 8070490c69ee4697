package fsm

import (
	"context"
	"time"

	"github.com/memrecall/memrecall/telemetry"
)

// Step applies one event and returns what the host must do now.
//
// Shared checks come first: after shutdown every event is dropped, and an
// event for a plan other than the current one is dropped (spec §5.6: a
// late settle of an old query never crosses into the new one);
// session-wide triggers (query_started, reset, shutdown) name no plan.
// Then Step runs the row of the lifecycle table (table.go) for the
// current state and trigger whose guard holds: its action, then become.
func (s *Session) Step(ev Event) Output {
	if s.closed {
		return s.dropped()
	}
	if !ev.Trigger.sessionWide() && !s.isCurrent(ev.Plan) {
		return s.dropped()
	}
	from := s.cur.state
	if mutantsBuilt {
		from = s.mutantRows(from, ev.Trigger)
	}
	if int(from) >= len(lifecycle) {
		return s.unchanged()
	}
	s.in = guardInput{s: s, ev: ev}
	args := s.args[:]
	args[0] = &s.in
	rows := lifecycle[from]
	for i := range rows {
		r := &rows[i]
		if r.on != ev.Trigger || (r.guard != nil && !r.guard(context.Background(), args...)) {
			continue
		}
		var out Output
		if r.action != nil {
			out = r.action(s, ev)
		}
		s.become(r.to, r.sets)
		out.Plan, out.State = s.cur.id, s.cur.state
		return out
	}
	return s.unchanged()
}

// become is the one place that assigns a plan's state and progress (an
// action may replace the plan itself, which starts idle with none).
func (s *Session) become(to State, sets progress) {
	s.cur.state = to
	s.cur.progress |= sets
}

// mutantRows picks the rows a deliberate defect acts on: an ended plan
// reacting like an open one, a second initial point like the first.
func (s *Session) mutantRows(from State, t Trigger) State {
	switch {
	case s.mut.has(mutTerminalReopens) && from.Terminal() && !t.sessionWide():
		return StateFastDelivered
	case s.mut.has(mutInitialTwice) && from == StateFastDelivered && t == TriggerInitialPoint:
		return StatePending
	}
	return from
}

// isCurrent is the stale-plan check.
func (s *Session) isCurrent(p PlanID) bool {
	if s.mut.has(mutNoStaleCheck) {
		return s.cur.id != 0
	}
	return p != 0 && p == s.cur.id
}

func (s *Session) dropped() Output {
	return Output{State: s.cur.state, Dropped: true}
}

func (s *Session) unchanged() Output {
	return Output{Plan: s.cur.id, State: s.cur.state}
}

// emptyReason says why a settled plan has nothing to deliver: its
// selection is empty, or every document of it was surfaced.
func (s *Session) emptyReason() telemetry.DiscardReason {
	if len(s.cur.selection) == 0 {
		return telemetry.ReasonNoRelevantResults
	}
	return telemetry.ReasonAlreadyDelivered
}

// selectionFor turns a settle event into the plan's selection: the
// model's answer (deduplicated, capped), or on failure the lexical top
// MaxRelevantDocs.
func (s *Session) selectionFor(ev Event) ([]DocID, telemetry.Strategy) {
	if ev.Failed {
		return s.firstDistinct(s.cur.ranking, MaxRelevantDocs, false), telemetry.StrategyHeuristic
	}
	limit := MaxRelevantDocs
	if s.mut.has(mutNoSelectionCap) {
		limit = len(ev.Docs)
	}
	sel := s.firstDistinct(ev.Docs, limit, false)
	if len(sel) == 0 {
		return nil, telemetry.StrategyNone
	}
	return sel, telemetry.StrategyModel
}

// deliver marks docs surfaced and outputs them with their telemetry.
func (s *Session) deliver(at time.Duration, phase telemetry.Phase, point telemetry.DeliveryPoint, strategy telemetry.Strategy, docs []DocID) Output {
	s.addSurfaced(docs)
	var out Output
	out.Deliver = Delivery{Phase: phase, Point: point, Strategy: strategy, Docs: docs}
	out.Telemetry = []telemetry.Event{telemetry.DeliveryEvent(telemetry.Delivery{
		Phase:    phase,
		Point:    point,
		Strategy: strategy,
		Docs:     len(docs),
		Latency:  at - s.cur.queryAt,
	})}
	return out
}

// discard ends the open plan without delivery. The discard record is the
// plan's one terminal outcome, so its phase is always refined.
func (s *Session) discard(at time.Duration, reason telemetry.DiscardReason) Output {
	lost := 0
	if s.mut.has(mutDiscardCountsDocs) {
		lost = s.remainderLen()
	}
	out := Output{Closed: s.cur.id}
	out.Telemetry = []telemetry.Event{telemetry.DeliveryEvent(telemetry.Delivery{
		Phase:    telemetry.PhaseRefined,
		Point:    telemetry.PointDiscarded,
		Reason:   reason,
		Strategy: s.cur.strategy,
		Docs:     lost,
		Latency:  at - s.cur.queryAt,
	})}
	return out
}

// fastDocs is the first MaxFastDocs documents of the ranking not yet
// surfaced.
func (s *Session) fastDocs() []DocID {
	limit := MaxFastDocs
	if s.mut.has(mutNoFastCap) {
		limit = len(s.cur.ranking)
	}
	return s.firstDistinct(s.cur.ranking, limit, true)
}

// remainder is the selection minus the surfaced documents.
func (s *Session) remainder() []DocID {
	return s.firstDistinct(s.cur.selection, MaxRelevantDocs, true)
}

// remainderLen counts the remainder without building it.
func (s *Session) remainderLen() int { return s.countNew(s.cur.selection) }

// countNew counts the documents of docs, which are distinct, that were not
// surfaced: firstDistinct(docs, len(docs), true) without building it.
func (s *Session) countNew(docs []DocID) int {
	n := 0
	for _, d := range docs {
		if !s.excluded(d) {
			n++
		}
	}
	return n
}

// excluded is the exclusion set check (spec §5.6).
func (s *Session) excluded(d DocID) bool {
	if s.mut.has(mutNoExclusion) {
		return false
	}
	return s.Surfaced(d)
}

// firstDistinct returns up to limit distinct documents of docs, in order,
// skipping surfaced ones when exclude is set; nil when there are none.
func (s *Session) firstDistinct(docs []DocID, limit int, exclude bool) []DocID {
	var out []DocID
	for _, d := range docs {
		if len(out) == limit {
			break
		}
		if (exclude && s.excluded(d)) || containsDoc(out, d) {
			continue
		}
		if out == nil {
			out = make([]DocID, 0, min(limit, len(docs)))
		}
		out = append(out, d)
	}
	return out
}

func containsDoc(docs []DocID, d DocID) bool {
	for _, x := range docs {
		if x == d {
			return true
		}
	}
	return false
}
