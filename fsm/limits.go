package fsm

// Document counts per prompt (spec §5.7). The fsm caps every document
// list it outputs, so a host that renders exactly Output.Deliver.Docs
// never exceeds them. The limit is per prompt, not per turn: a fast
// delivery of 2 and a disjoint refined delivery of 5 make 7 in one turn.
const (
	// MaxFastDocs is the size of the fast delivery.
	MaxFastDocs = 2
	// MaxRelevantDocs caps a selection and every delivery; the
	// heuristic fallback is the lexical top MaxRelevantDocs.
	MaxRelevantDocs = 5
)
