package eval

import (
	"slices"
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/memory"
)

// ReachRow says how many of a slice's relevant documents the engine put in
// front of the selector. For the semantic slice it measures the recent
// reserve of the candidate set: the only way a document that shares no
// token with the query reaches the model.
type ReachRow struct {
	// Slice is a slice name.
	Slice string `json:"slice"`
	// Cases counts the slice's answerable cases in the delivery run.
	Cases int `json:"cases"`
	// Reach is the fraction of their relevant documents in the manifest.
	Reach float64 `json:"manifest_reach"`
}

// manifestReach computes the Reach rows in Slices() order.
func manifestReach(cases []*Case, inputs []caseInputs) []ReachRow {
	type acc struct{ cases, rel, in int }
	per := map[string]*acc{}
	for i, k := range cases {
		a := per[k.Slice]
		if a == nil {
			a = &acc{}
			per[k.Slice] = a
		}
		a.cases++
		a.rel += min(len(k.Relevant), fsm.MaxRelevantDocs)
		a.in += len(inputs[i].selection)
	}
	var rows []ReachRow
	for _, s := range Slices() {
		if a := per[s]; a != nil {
			rows = append(rows, ReachRow{Slice: s, Cases: a.cases, Reach: float64(a.in) / float64(a.rel)})
		}
	}
	return rows
}

// deliveryRow computes one row from the turns of a scenario.
func deliveryRow(design string, sc scenario, cases []*Case, turns []turnResult, dup, cross int) DeliveryRow {
	row := DeliveryRow{Design: design, Turn: sc.turn, SelectorMS: int(sc.latency / time.Millisecond),
		Turns: len(cases), Duplicates: dup, CrossQuery: cross}
	for i, k := range cases {
		tr := turns[i]
		if len(tr.initial) > 0 {
			row.FirstTurnAny++
		}
		if anyRelevant(k, tr.initial) {
			row.FirstTurn++
		}
		if anyRelevant(k, tr.initial) || anyRelevant(k, tr.later) {
			row.Delivered++
		}
		row.RelevantShare += relevantShare(k, append(slices.Clone(tr.initial), tr.later...))
		row.Duplicates += duplicates(append(slices.Clone(tr.initial), tr.later...))
		row.CrossQuery += tr.crossed
	}
	n := float64(len(cases))
	row.FirstTurn /= n
	row.FirstTurnAny /= n
	row.Delivered /= n
	row.RelevantShare /= n
	return row
}

// crossedIDs counts the documents of tr that in cannot account for: in
// the first request, documents neither ranked nor selected; at tool
// results, documents not selected.
func crossedIDs(in caseInputs, tr turnResult) int {
	n := 0
	for _, id := range tr.initial {
		if !slices.Contains(in.ranking, id) && !slices.Contains(in.selection, id) {
			n++
		}
	}
	for _, id := range tr.later {
		if !slices.Contains(in.selection, id) {
			n++
		}
	}
	return n
}

// conversationCounts returns the duplicate and cross-query deliveries of
// a conversation's turns (none without a conversation).
func conversationCounts(turns []turnResult) (dup, cross int) {
	var all []string
	for _, tr := range turns {
		all = append(all, tr.initial...)
		all = append(all, tr.later...)
		cross += tr.crossed
	}
	return duplicates(all), cross
}

func docIDs(ids []string) []fsm.DocID {
	out := make([]fsm.DocID, len(ids))
	for i, id := range ids {
		out[i] = fsm.DocID(id)
	}
	return out
}

func corpusIDs(ids map[memory.ID]string, docs []memory.ID) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = ids[d]
	}
	return out
}

func anyRelevant(k *Case, docs []string) bool {
	for _, d := range docs {
		if slices.Contains(k.Relevant, d) {
			return true
		}
	}
	return false
}

// relevantShare is the fraction of k's relevant documents among docs.
func relevantShare(k *Case, docs []string) float64 {
	n := 0
	for _, id := range k.Relevant {
		if slices.Contains(docs, id) {
			n++
		}
	}
	return float64(n) / float64(len(k.Relevant))
}

// duplicates counts the entries of docs beyond the first of each value.
func duplicates(docs []string) int {
	seen := map[string]bool{}
	n := 0
	for _, d := range docs {
		if seen[d] {
			n++
		}
		seen[d] = true
	}
	return n
}
