package props

import (
	"slices"
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/telemetry"
)

// fsmModel is the plain model the fsm suite runs beside the real
// fsm.Session: spec §5 written as directly as possible over a slice of
// plans and a map of surfaced documents, with no attention to speed.
type fsmModel struct {
	plans    []*modelPlan // plans[i] has ID i+1
	surfaced map[fsm.DocID]bool
	closed   bool
}

// modelPlan is what the model knows of one plan.
type modelPlan struct {
	id            fsm.PlanID
	state         fsm.State
	queryAt       time.Duration
	initialPassed bool
	published     bool
	ranking       []fsm.DocID
	scanned       int
	scan, fast    time.Duration
	settled       bool
	selection     []fsm.DocID
	strategy      telemetry.Strategy
}

// modelStep is what the model expects of one step.
type modelStep struct {
	dropped   bool
	deliver   []fsm.DocID
	phase     telemetry.Phase
	point     telemetry.DeliveryPoint
	strategy  telemetry.Strategy
	discarded fsm.PlanID // plan discarded in this step, 0 if none
	reason    telemetry.DiscardReason
	selection *telemetry.Selection // the selection event expected, if any
}

func newFSMModel() *fsmModel { return &fsmModel{surfaced: map[fsm.DocID]bool{}} }

func (m *fsmModel) current() *modelPlan {
	if len(m.plans) == 0 {
		return nil
	}
	return m.plans[len(m.plans)-1]
}

func (m *fsmModel) state() fsm.State {
	if p := m.current(); p != nil {
		return p.state
	}
	return fsm.StateIdle
}

func open(p *modelPlan) bool {
	return p != nil && (p.state == fsm.StatePending || p.state == fsm.StateFastDelivered)
}

// distinct returns up to n distinct documents of docs in order, leaving
// out surfaced ones when exclude is set.
func (m *fsmModel) distinct(docs []fsm.DocID, n int, exclude bool) []fsm.DocID {
	var out []fsm.DocID
	for _, d := range docs {
		if len(out) < n && !slices.Contains(out, d) && !(exclude && m.surfaced[d]) {
			out = append(out, d)
		}
	}
	return out
}

func (m *fsmModel) discard(p *modelPlan, reason telemetry.DiscardReason, st *modelStep) {
	p.state = fsm.StateDiscarded
	st.discarded, st.reason = p.id, reason
}

func (m *fsmModel) deliver(p *modelPlan, docs []fsm.DocID, phase telemetry.Phase, point telemetry.DeliveryPoint, strategy telemetry.Strategy, st *modelStep) {
	for _, d := range docs {
		m.surfaced[d] = true
	}
	st.deliver, st.phase, st.point, st.strategy = docs, phase, point, strategy
}

// refinedOrDiscard is rule 2 and rule 4: the selection minus what was
// surfaced, or the reason there is nothing.
func (m *fsmModel) refinedOrDiscard(p *modelPlan, point telemetry.DeliveryPoint, st *modelStep) {
	rem := m.distinct(p.selection, fsm.MaxRelevantDocs, true)
	switch {
	case len(p.selection) == 0:
		m.discard(p, telemetry.ReasonNoRelevantResults, st)
	case len(rem) == 0:
		m.discard(p, telemetry.ReasonAlreadyDelivered, st)
	default:
		p.state = fsm.StateRefinedDelivered
		m.deliver(p, rem, telemetry.PhaseRefined, point, p.strategy, st)
	}
}

// apply is the model's step.
func (m *fsmModel) apply(ev fsm.Event) modelStep {
	var st modelStep
	if m.closed {
		return modelStep{dropped: true}
	}
	cur := m.current()
	switch ev.Trigger {
	case fsm.TriggerQueryStarted:
		if open(cur) {
			m.discard(cur, telemetry.ReasonNewQuery, &st)
		}
		m.plans = append(m.plans, &modelPlan{id: fsm.PlanID(len(m.plans) + 1), state: fsm.StatePending, queryAt: ev.At})
		return st
	case fsm.TriggerReset:
		if open(cur) {
			m.discard(cur, telemetry.ReasonReset, &st)
		}
		m.surfaced = map[fsm.DocID]bool{}
		return st
	case fsm.TriggerShutdown:
		if open(cur) {
			m.discard(cur, telemetry.ReasonShutdown, &st)
		}
		m.closed = true
		return st
	}
	if cur == nil || ev.Plan != cur.id {
		return modelStep{dropped: true}
	}
	if !open(cur) {
		return st
	}
	switch ev.Trigger {
	case fsm.TriggerDeterministicPublished:
		if !cur.published {
			cur.published, cur.ranking = true, ev.Docs
			cur.scanned, cur.scan, cur.fast = ev.Scanned, ev.Took, ev.At-cur.queryAt
		}
	case fsm.TriggerSelectorSettled:
		if cur.settled {
			break
		}
		cur.settled = true
		if ev.Failed {
			cur.selection, cur.strategy = m.distinct(cur.ranking, fsm.MaxRelevantDocs, false), telemetry.StrategyHeuristic
		} else if cur.selection = m.distinct(ev.Docs, fsm.MaxRelevantDocs, false); len(cur.selection) > 0 {
			cur.strategy = telemetry.StrategyModel
		}
		st.selection = &telemetry.Selection{
			Strategy: cur.strategy, Scanned: cur.scanned, Selected: len(cur.selection),
			Scan: cur.scan, Fast: cur.fast, Selector: ev.Took, Total: ev.At - cur.queryAt,
		}
		if cur.initialPassed {
			if len(cur.selection) == 0 {
				m.discard(cur, telemetry.ReasonNoRelevantResults, &st)
			} else if len(m.distinct(cur.selection, fsm.MaxRelevantDocs, true)) == 0 {
				m.discard(cur, telemetry.ReasonAlreadyDelivered, &st)
			}
		}
	case fsm.TriggerInitialPoint:
		if cur.initialPassed {
			break
		}
		cur.initialPassed = true
		if cur.settled {
			m.refinedOrDiscard(cur, telemetry.PointInitial, &st)
		} else if fast := m.distinct(cur.ranking, fsm.MaxFastDocs, true); len(fast) > 0 {
			cur.state = fsm.StateFastDelivered
			m.deliver(cur, fast, telemetry.PhaseFast, telemetry.PointInitial, telemetry.StrategyHeuristic, &st)
		}
	case fsm.TriggerToolResultPoint:
		if cur.initialPassed && cur.settled {
			m.refinedOrDiscard(cur, telemetry.PointToolResult, &st)
		}
	case fsm.TriggerTurnEnded:
		reason := telemetry.ReasonNoSafeDeliveryPoint
		if cur.settled && len(cur.selection) == 0 {
			reason = telemetry.ReasonNoRelevantResults
		} else if cur.settled && len(m.distinct(cur.selection, fsm.MaxRelevantDocs, true)) == 0 {
			reason = telemetry.ReasonAlreadyDelivered
		}
		m.discard(cur, reason, &st)
	case fsm.TriggerAbort:
		m.discard(cur, telemetry.ReasonAbort, &st)
	}
	return st
}
