package recall

import (
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/score"
	"github.com/memrecall/memrecall/telemetry"
)

// Trace is what a plan did, for diagnostics (the memrecall query command,
// a host's debug view). It holds paths and may hold selector error text,
// so it is for the host's own eyes: telemetry never carries any of it.
type Trace struct {
	// Scanned is the number of topic documents read from both scopes.
	Scanned int
	// Skipped counts the files the scan passed over, by reason (a
	// missing root is one of them).
	Skipped memory.SkipCounts
	// Kept is the number that passed the active-tool noise filter.
	Kept int
	// Ranked are the lexical matches, best first, with their scores.
	Ranked []score.Match
	// Candidates is the selector's candidate set, in manifest order.
	Candidates []*memory.Document
	// ManifestDocs and ManifestBytes describe the manifest sent to the
	// selector (zero when no selector ran).
	ManifestDocs, ManifestBytes int
	// Strategy, Selected and ErrKind are the selector's outcome; Err is
	// its raw error, for debugging only. Selected is the model's valid
	// answer; under StrategyHeuristic it is empty and the plan falls back
	// to the top five of Ranked (the fsm applies the fallback).
	Strategy telemetry.Strategy
	Selected []memory.ID
	ErrKind  model.ErrorKind
	Err      error
	// Fast and Refined are the documents the plan injected at each phase.
	Fast, Refined []memory.ID
	// Watched says the tree was answered by the catalog's file-system
	// watch: nothing had changed since its last full revalidation
	// (memory.Stats.Watched). Stale says the plan ranked the catalog's last
	// result without revalidating it (a tree over 2,000 topics the watch
	// could not vouch for; docs/decisions/0603-freshness.md).
	Watched, Stale bool
	// Scan is the time to read the tree; Publish the time from the query
	// to the published deterministic result; Selector the selector call;
	// Settle the time from the query to the settle.
	Scan, Publish, Selector, Settle time.Duration
}

// Trace returns a copy of what the plan has recorded so far.
func (p *Plan) Trace() Trace {
	p.e.mu.Lock()
	defer p.e.mu.Unlock()
	return p.trace
}
