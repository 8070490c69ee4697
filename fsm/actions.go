package fsm

import "github.com/memrecall/memrecall/telemetry"

// The actions of the lifecycle's rows. Each runs before its row's state
// change, so it sees the plan's state and progress as they were; it
// records what the event carries and returns the step's deliveries,
// telemetry and closed plan. Step fills in the output's plan and state.

// openPlan opens the next plan after an ended one (or none).
func openPlan(s *Session, ev Event) Output {
	s.cur = plan{id: s.cur.id + 1, queryAt: ev.At}
	return Output{}
}

// replacePlan discards the open plan with new_query and opens the next.
func replacePlan(s *Session, ev Event) Output {
	out := s.discard(ev.At, telemetry.ReasonNewQuery)
	s.cur = plan{id: s.cur.id + 1, queryAt: ev.At}
	return out
}

// recordRanking keeps the lexical ranking and the scan's figures.
func recordRanking(s *Session, ev Event) Output {
	p := &s.cur
	p.ranking = ev.Docs
	p.scanned = ev.Scanned
	p.scan = ev.Took
	p.fast = ev.At - p.queryAt
	return Output{}
}

// recordSelection keeps the settled selection and emits the plan's
// selection event. The selection is the one the row's guard looked at:
// Step sets s.in to the step's event before any guard or action runs.
func recordSelection(s *Session, ev Event) Output {
	p := &s.cur
	p.selection, p.strategy = s.in.selection()
	return Output{Telemetry: []telemetry.Event{telemetry.SelectionEvent(telemetry.Selection{
		Strategy: p.strategy,
		Scanned:  p.scanned,
		Selected: len(p.selection),
		Scan:     p.scan,
		Fast:     p.fast,
		Selector: ev.Took,
		Total:    ev.At - p.queryAt,
		Error:    selectionError(ev),
	})}}
}

// selectionError is the failure kind a settle reports; only a failed
// settle has one.
func selectionError(ev Event) telemetry.ErrorKind {
	if !ev.Failed {
		return telemetry.ErrorNone
	}
	return ev.Error
}

// settleAndEnd records a selection that leaves nothing to deliver after
// the initial point, and ends the plan at once: waiting for a tool result
// could not change it, since only this plan's own deliveries or a reset
// (which ends it) change the surfaced set.
func settleAndEnd(s *Session, ev Event) Output {
	sel := recordSelection(s, ev)
	out := s.discard(ev.At, s.emptyReason())
	out.Telemetry = append(sel.Telemetry, out.Telemetry...)
	return out
}

// passInitialPoint: the initial point found nothing to deliver.
func passInitialPoint(*Session, Event) Output { return Output{} }

// deliverFast delivers the first MaxFastDocs ranked documents not
// surfaced before (spec §5.3).
func deliverFast(s *Session, ev Event) Output {
	return s.deliver(ev.At, telemetry.PhaseFast, ev.Trigger.point(), telemetry.StrategyHeuristic, s.fastDocs())
}

// deliverRefined delivers the selection minus the surfaced documents, at
// the initial point (spec §5.2) or a tool-result point (§5.4), and closes
// the plan.
func deliverRefined(s *Session, ev Event) Output {
	out := s.deliver(ev.At, telemetry.PhaseRefined, ev.Trigger.point(), s.cur.strategy, s.remainder())
	out.Closed = s.cur.id
	return out
}

// discardSettled ends a plan that settled inside the initial window with
// nothing to deliver.
func discardSettled(s *Session, ev Event) Output {
	return s.discard(ev.At, s.emptyReason())
}

// endTurn discards an open plan: no prompt is left to carry its result.
func endTurn(s *Session, ev Event) Output {
	reason := telemetry.ReasonNoSafeDeliveryPoint
	if s.cur.has(progSettled) && (len(s.cur.selection) == 0 || s.remainderLen() == 0) {
		reason = s.emptyReason()
	}
	return s.discard(ev.At, reason)
}

// abortPlan discards the plan the host cancelled.
func abortPlan(s *Session, ev Event) Output {
	return s.discard(ev.At, telemetry.ReasonAbort)
}

// resetSession discards the open plan and empties the surfaced set.
func resetSession(s *Session, ev Event) Output {
	out := s.discard(ev.At, telemetry.ReasonReset)
	clearSurfaced(s, ev)
	return out
}

// clearSurfaced empties the surfaced set, so documents may be delivered
// again afterwards.
func clearSurfaced(s *Session, _ Event) Output {
	if !s.mut.has(mutResetKeepsSurfaced) {
		s.surfaced = nil
	}
	return Output{}
}

// shutdownSession discards the open plan and closes the session.
func shutdownSession(s *Session, ev Event) Output {
	out := s.discard(ev.At, telemetry.ReasonShutdown)
	closeSession(s, ev)
	return out
}

// closeSession closes the session: every later event is dropped.
func closeSession(s *Session, _ Event) Output {
	s.closed = true
	return Output{}
}

// point is the delivery point a trigger delivers at.
func (t Trigger) point() telemetry.DeliveryPoint {
	if t == TriggerInitialPoint {
		return telemetry.PointInitial
	}
	return telemetry.PointToolResult
}
