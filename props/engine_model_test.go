package props

import (
	"slices"
	"time"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
	"github.com/memrecall/memrecall/telemetry"
)

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
