package model

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/telemetry"
)

// TestSettleProperties checks Settle against a plain model of the spec §4.5
// policy on random manifests, answers and limits.
func TestSettleProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 8).Draw(t, "documents")
		var docs []*memory.Document
		for i := range n {
			docs = append(docs, doc(memory.ScopeProject, fmt.Sprintf("d%d.md", i), memory.TypeProject, "x"))
		}
		m := BuildManifest(docs)
		pool := append(m.Keys(), "project/unknown.md", "/abs/d0.md", "")
		answer := rapid.SliceOfN(rapid.SampledFrom(pool), 0, 8).Draw(t, "answer")
		limit := rapid.IntRange(-1, 6).Draw(t, "limit")

		out := Settle(context.Background(), Scripted{Answer: answer}, Request{Manifest: m, Limit: limit})

		eff := limit
		if eff <= 0 {
			eff = DefaultLimit
		}
		valid := len(answer) <= eff
		var ids []memory.ID
		for _, k := range answer {
			id, ok := m.Lookup(k)
			if !ok || slices.Contains(ids, id) {
				valid = false
				break
			}
			ids = append(ids, id)
		}
		switch {
		case n == 0 || (valid && len(answer) == 0):
			if out.Strategy != telemetry.StrategyNone || len(out.Docs) != 0 || out.Err != nil {
				t.Fatalf("want nothing selected, got %+v", out)
			}
		case valid:
			if out.Strategy != telemetry.StrategyModel || !slices.Equal(out.Docs, ids) || out.Err != nil {
				t.Fatalf("want model %v, got %+v", ids, out)
			}
		default:
			if out.Strategy != telemetry.StrategyHeuristic || len(out.Docs) != 0 || out.Err == nil || out.ErrKind == telemetry.ErrorNone {
				t.Fatalf("want heuristic with no documents and an error, got %+v", out)
			}
		}
		if len(out.Docs) > eff || out.Cancelled {
			t.Fatalf("outcome breaks the limit or claims cancellation: %+v", out)
		}
	})
}
