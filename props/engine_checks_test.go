package props

import (
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/recall"
	"github.com/memrecall/memrecall/telemetry"
)

// observe checks one returned injection against the model-free invariants
// and records it. endedBefore says the host had ended, aborted or replaced
// the plan before the call.
func (h *engineHarness) observe(t *rapid.T, p *enginePlan, call string, inj recall.Injection, endedBefore bool) {
	t.Helper()
	if inj.Empty() {
		if inj.Text != "" {
			h.fail(t, "plan %d %s: an empty injection has text", p.n, call)
		}
		return
	}
	if len(inj.Docs) > recall.MaxPromptDocs {
		h.fail(t, "plan %d %s: %d documents in one prompt", p.n, call, len(inj.Docs))
	}
	if len(inj.Text) > recall.MaxPromptBytes {
		h.fail(t, "plan %d %s: %d bytes of text", p.n, call, len(inj.Text))
	}
	if n := headings(inj.Text); n != len(inj.Docs) {
		h.fail(t, "plan %d %s: %d document headings in the text for %d documents", p.n, call, n, len(inj.Docs))
	}
	switch inj.Phase {
	case telemetry.PhaseFast:
		switch {
		case len(inj.Docs) > recall.MaxFastDocs:
			h.fail(t, "plan %d %s: fast delivery of %d documents", p.n, call, len(inj.Docs))
		case call != "initial":
			h.fail(t, "plan %d: fast delivery from %s", p.n, call)
		case p.fast > 0 || p.refined > 0:
			h.fail(t, "plan %d: fast delivery after an earlier delivery of the plan", p.n)
		case endedBefore:
			h.fail(t, "plan %d: fast delivery after the host ended or replaced the plan", p.n)
		case inj.Strategy != telemetry.StrategyHeuristic:
			h.fail(t, "plan %d: fast delivery with strategy %v", p.n, inj.Strategy)
		}
		p.fast++
	case telemetry.PhaseRefined:
		if p.refined > 0 {
			h.fail(t, "plan %d %s: a second refined delivery", p.n, call)
		}
		if endedBefore {
			h.fail(t, "plan %d %s: refined delivery after the host ended or replaced the plan", p.n, call)
		}
		p.refined++
	default:
		h.fail(t, "plan %d %s: delivery with phase %v", p.n, call, inj.Phase)
	}
	for i, id := range inj.Docs {
		if !p.given[id] {
			h.fail(t, "plan %d %s: %s neither matches the plan's query nor was named by its selector (cross-query leakage)", p.n, call, h.name(id))
		}
		if h.injected[id] || slices.Contains(inj.Docs[:i], id) {
			h.fail(t, "plan %d %s: %s injected twice since the last reset", p.n, call, h.name(id))
		}
		h.injected[id] = true
	}
	h.injectedCount += len(inj.Docs)
}

func (h *engineHarness) names(ids []memory.ID) []string {
	var out []string
	for _, id := range ids {
		out = append(out, h.name(id))
	}
	return out
}

// headings counts document headings outside memory fences.
func headings(text string) int {
	n := 0
	fence := ""
	for _, l := range strings.Split(text, "\n") {
		switch {
		case fence != "":
			if c := strings.TrimRight(l, " "); len(c) >= len(fence) && strings.Trim(c, fence[:1]) == "" {
				fence = ""
			}
		case strings.HasSuffix(l, "memory") && len(l) > len("memory") && (l[0] == '`' || l[0] == '~'):
			fence = strings.TrimSuffix(l, "memory")
		case strings.HasPrefix(l, "## "):
			n++
		}
	}
	return n
}

// checkTelemetry checks the events recorded since the last check: the
// delivery events count exactly the docs the host calls just received,
// and every discard is well formed.
func (h *engineHarness) checkTelemetry(t *rapid.T, injected int, after string) {
	t.Helper()
	events := h.rec.Events()
	fresh := events[h.seenEvents:]
	h.seenEvents = len(events)
	counted := 0
	for _, e := range fresh {
		if e.Kind != telemetry.KindDelivery {
			continue
		}
		d := e.Delivery
		counted += d.Docs
		if h.stats != nil {
			h.stats[d.Phase.String()+"@"+d.Point.String()+"/"+d.Reason.String()]++
		}
		if (d.Point == telemetry.PointDiscarded) != (d.Reason != telemetry.ReasonNone) || (d.Point == telemetry.PointDiscarded && (d.Docs != 0 || d.Phase != telemetry.PhaseRefined)) {
			h.fail(t, "after %s: malformed delivery event %v", after, d)
		}
	}
	if counted != injected {
		h.fail(t, "after %s: delivery telemetry counts %d documents, the host received %d", after, counted, injected)
	}
}

// checkInvariants holds between any two actions.
func (h *engineHarness) checkInvariants(t *rapid.T) {
	logs := h.logs.String()
	for _, m := range append(slices.Clone(h.tr.markers), h.queryMarkers...) {
		if strings.Contains(logs, m) {
			h.fail(t, "serialized telemetry holds the marker %q", m)
		}
	}
	if strings.Contains(logs, h.tr.root) || strings.Contains(logs, ".md") || strings.Contains(logs, "note-") {
		h.fail(t, "serialized telemetry holds a path:\n%s", logs)
	}
	for _, e := range h.rec.Events() {
		if s := e.String(); strings.Contains(s, "/") || strings.Contains(s, "note") {
			h.fail(t, "telemetry event %q holds a path", s)
		}
	}
}
