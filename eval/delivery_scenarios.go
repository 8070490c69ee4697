package eval

import (
	"time"
)

// The turn kinds of the delivery scenarios.
const (
	// TurnToolFree: the model answers the first request directly, so the
	// initial prompt is the turn's only delivery point.
	TurnToolFree = "tool-free"
	// TurnToolUsing: the model calls two tools before answering, giving
	// two tool-result points.
	TurnToolUsing = "tool-using"
)

// SelectorLatencies are the modelled selector round trips (spec §7.3): two
// inside or near the initial budget, three well above it.
func SelectorLatencies() []time.Duration {
	return []time.Duration{40 * time.Millisecond, 250 * time.Millisecond, 600 * time.Millisecond,
		1500 * time.Millisecond, 3000 * time.Millisecond}
}

// The host's turn, timed from the moment the first model request is sent
// (after the initial wait): each model step takes modelStep, each tool
// toolRun. A tool-using turn thus reaches tool-result points at 1.2 s and
// 2.4 s and ends at 3.4 s; a tool-free turn ends at 1 s. Every boundary
// sits at least 200 ms from every selector latency, so no scenario hangs on
// the order of two events at the same instant.
const (
	modelStep = 1000 * time.Millisecond
	toolRun   = 200 * time.Millisecond
	toolCalls = 2
	// userGap is the pause between the end of a turn and the next query
	// in a conversation: short, so a slow selector of one query is still
	// running when the next one starts.
	userGap = 100 * time.Millisecond
	// warmWait lets every engine's background warm-up finish before the
	// first query, as on a host that created its engine at start-up.
	warmWait = 500 * time.Millisecond
)

// deliveryCases picks the answerable cases of a delivery run. A case
// whose query text and recent tools repeat an earlier one is left out: the
// oracle selector tells queries apart by exactly those.
func deliveryCases(c *Corpus, max int) []*Case {
	per := map[string][]*Case{}
	seen := map[string]bool{}
	total := 0
	for i := range c.Cases {
		k := &c.Cases[i]
		key := caseKey(k.Query, k.RecentTools)
		if !k.NoResult() && !seen[key] {
			seen[key] = true
			per[k.Slice] = append(per[k.Slice], k)
			total++
		}
	}
	if max <= 0 || max > total {
		max = total
	}
	var out []*Case
	for round := 0; len(out) < max; round++ {
		for _, s := range Slices() {
			if round < len(per[s]) && len(out) < max {
				out = append(out, per[s][round])
			}
		}
	}
	return out
}

// scenario is one selector latency and turn kind.
type scenario struct {
	turn    string
	latency time.Duration
}

func scenarios() []scenario {
	var out []scenario
	for _, turn := range []string{TurnToolFree, TurnToolUsing} {
		for _, l := range SelectorLatencies() {
			out = append(out, scenario{turn, l})
		}
	}
	return out
}

// turnKind is the kind of the i-th turn of a session: first throughout,
// or alternating between the two kinds starting with first. Alternation is
// what gives a slow selector of a short tool-free turn the chance to
// settle while the next, tool-using turn is open — the moment a result
// could cross a query boundary.
func turnKind(first string, i int, alternate bool) string {
	if !alternate || i%2 == 0 {
		return first
	}
	if first == TurnToolFree {
		return TurnToolUsing
	}
	return TurnToolFree
}
