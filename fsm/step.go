package fsm

import (
	"time"

	"github.com/memrecall/memrecall/telemetry"
)

// Step applies one event and returns what the host must do now.
//
// Shared checks come first: after shutdown every event is dropped, and an
// event for a plan other than the current one is dropped (spec §5.6: a
// late settle of an old query never crosses into the new one). Then the
// session-wide triggers apply, then the plan triggers by state. A
// terminal plan ignores plan triggers: it delivers nothing more.
//
// Every state change made here is one the declared transition table
// (Table) permits; a test fires the table beside Step to prove it.
func (s *Session) Step(ev Event) Output {
	if s.closed {
		return s.dropped()
	}
	switch ev.Trigger {
	case TriggerQueryStarted:
		return s.startQuery(ev.At)
	case TriggerReset:
		return s.reset(ev.At)
	case TriggerShutdown:
		return s.shutdown(ev.At)
	}
	if !s.isCurrent(ev.Plan) {
		return s.dropped()
	}
	if !s.cur.state.Open() && !s.mut.has(mutTerminalReopens) {
		return s.unchanged()
	}
	switch ev.Trigger {
	case TriggerDeterministicPublished:
		return s.publish(ev)
	case TriggerSelectorSettled:
		return s.settle(ev)
	case TriggerInitialPoint:
		return s.reachInitialPoint(ev.At)
	case TriggerToolResultPoint:
		return s.reachToolResultPoint(ev.At)
	case TriggerTurnEnded:
		return s.endTurn(ev.At)
	case TriggerAbort:
		return s.discard(ev.At, telemetry.ReasonAbort)
	}
	return s.dropped()
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

// startQuery discards the open plan with new_query and opens the next.
func (s *Session) startQuery(at time.Duration) Output {
	var out Output
	if s.cur.state.Open() {
		out = s.discard(at, telemetry.ReasonNewQuery)
	}
	s.cur = plan{id: s.cur.id + 1, state: StatePending, queryAt: at}
	out.Plan, out.State = s.cur.id, s.cur.state
	return out
}

// reset discards the open plan and empties the surfaced set, so documents
// may be delivered again afterwards.
func (s *Session) reset(at time.Duration) Output {
	out := s.unchanged()
	if s.cur.state.Open() {
		out = s.discard(at, telemetry.ReasonReset)
	}
	if !s.mut.has(mutResetKeepsSurfaced) {
		clear(s.surfaced)
	}
	return out
}

// shutdown discards the open plan and closes the session.
func (s *Session) shutdown(at time.Duration) Output {
	out := s.unchanged()
	if s.cur.state.Open() {
		out = s.discard(at, telemetry.ReasonShutdown)
	}
	s.closed = true
	return out
}

// publish records the lexical ranking; a second one is ignored.
func (s *Session) publish(ev Event) Output {
	p := &s.cur
	if p.published {
		return s.unchanged()
	}
	p.published = true
	p.ranking = ev.Docs
	p.scanned = ev.Scanned
	p.scan = ev.Took
	p.fast = ev.At - p.queryAt
	return s.unchanged()
}

// settle records the selection and emits the plan's selection event.
// After the initial point a selection with nothing left to deliver ends
// the plan at once: waiting for a tool result could not change it, since
// only this plan's own deliveries or a reset (which ends it) change the
// surfaced set.
func (s *Session) settle(ev Event) Output {
	p := &s.cur
	if p.settled {
		return s.unchanged()
	}
	p.settled = true
	p.selection, p.strategy = s.selectionFor(ev)
	sel := telemetry.SelectionEvent(telemetry.Selection{
		Strategy: p.strategy,
		Scanned:  p.scanned,
		Selected: len(p.selection),
		Scan:     p.scan,
		Fast:     p.fast,
		Selector: ev.Took,
		Total:    ev.At - p.queryAt,
	})
	if p.initialPassed {
		if reason, ok := s.nothingToDeliver(); ok {
			out := s.discard(ev.At, reason)
			out.Telemetry = append([]telemetry.Event{sel}, out.Telemetry...)
			return out
		}
	}
	out := s.unchanged()
	out.Telemetry = []telemetry.Event{sel}
	return out
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

// reachInitialPoint delivers the refined result when the plan settled in
// the initial window (spec §5.2), else the fast result (§5.3).
func (s *Session) reachInitialPoint(at time.Duration) Output {
	p := &s.cur
	if p.initialPassed && !s.mut.has(mutInitialTwice) {
		return s.unchanged()
	}
	p.initialPassed = true
	if p.settled {
		return s.deliverRefined(at, telemetry.PointInitial)
	}
	if fast := s.fastDocs(); len(fast) > 0 {
		p.state = StateFastDelivered
		return s.deliver(at, telemetry.PhaseFast, telemetry.PointInitial, telemetry.StrategyHeuristic, fast)
	}
	return s.unchanged()
}

// reachToolResultPoint delivers a settled remainder (spec §5.4).
func (s *Session) reachToolResultPoint(at time.Duration) Output {
	p := &s.cur
	if !p.initialPassed || !p.settled {
		return s.unchanged()
	}
	return s.deliverRefined(at, telemetry.PointToolResult)
}

// endTurn discards an open plan: no prompt is left to carry its result.
func (s *Session) endTurn(at time.Duration) Output {
	reason, ok := s.nothingToDeliver()
	if !ok {
		reason = telemetry.ReasonNoSafeDeliveryPoint
	}
	return s.discard(at, reason)
}

// nothingToDeliver says why a settled plan has nothing to deliver, if so.
func (s *Session) nothingToDeliver() (telemetry.DiscardReason, bool) {
	p := &s.cur
	switch {
	case !p.settled:
		return telemetry.ReasonNone, false
	case len(p.selection) == 0:
		return telemetry.ReasonNoRelevantResults, true
	case s.remainderLen() == 0:
		return telemetry.ReasonAlreadyDelivered, true
	}
	return telemetry.ReasonNone, false
}

// deliverRefined delivers the selection minus the surfaced documents, or
// discards the plan when nothing is left.
func (s *Session) deliverRefined(at time.Duration, point telemetry.DeliveryPoint) Output {
	if len(s.cur.selection) == 0 {
		return s.discard(at, telemetry.ReasonNoRelevantResults)
	}
	rem := s.remainder()
	if len(rem) == 0 {
		return s.discard(at, telemetry.ReasonAlreadyDelivered)
	}
	s.cur.state = StateRefinedDelivered
	out := s.deliver(at, telemetry.PhaseRefined, point, s.cur.strategy, rem)
	out.Closed = s.cur.id
	return out
}

// deliver marks docs surfaced and outputs them with their telemetry.
func (s *Session) deliver(at time.Duration, phase telemetry.Phase, point telemetry.DeliveryPoint, strategy telemetry.Strategy, docs []DocID) Output {
	for _, d := range docs {
		s.surfaced[d] = struct{}{}
	}
	out := s.unchanged()
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
	s.cur.state = StateDiscarded
	out := s.unchanged()
	out.Closed = s.cur.id
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
func (s *Session) remainderLen() int {
	n := 0
	for _, d := range s.cur.selection {
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
	_, ok := s.surfaced[d]
	return ok
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
