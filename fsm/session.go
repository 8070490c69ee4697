package fsm

import (
	"slices"
	"time"

	"github.com/memrecall/memrecall/telemetry"
)

// Session is one conversation's recall lifecycle: the current plan and the
// set of documents surfaced since the last reset.
//
// A Session is not safe for concurrent use. The engine's owner goroutine
// is the only caller; Step is synchronous, does no I/O, starts no
// goroutine and reads no clock.
type Session struct {
	// cur is the current plan: the plan of the latest query_started.
	// Invariant: cur.id == 0 exactly when cur.state == StateIdle.
	cur plan
	// surfaced holds every document delivered since the last reset, in
	// order: the set is this one slice, searched by binary search. It is
	// replaced, never changed in place, so a slice SurfacedDocs returned
	// earlier keeps its contents.
	// Invariant: surfaced is sorted, without duplicates, and is exactly
	// the union of Docs of the deliveries output since the last reset,
	// and those deliveries are disjoint.
	surfaced []DocID
	// closed is set by shutdown. Invariant: once true it stays true and
	// every later event is dropped.
	closed bool
	// mut switches on a deliberate defect for the property suite's
	// mutation tests; it is the zero value in every real Session.
	mut mutation
	// in and args are what Step passes to the rows' guards, kept here so
	// that a step allocates nothing for them. in holds the last event
	// until the next step.
	in   guardInput
	args [1]any
}

// plan is the state of one recall plan.
type plan struct {
	id    PlanID
	state State
	// progress is what the plan has been through besides its state: the
	// plan's full state is state × progress. Only become assigns state
	// and progress.
	// Invariant: state == StateFastDelivered implies progInitialPassed
	// and progPublished.
	progress progress
	// queryAt is when the query started; latencies are measured from it.
	queryAt time.Duration

	// ranking is the lexical ranking, best first; retained, not copied.
	ranking []DocID
	scanned int
	scan    time.Duration
	fast    time.Duration // query to published ranking

	// Invariant: without progSettled, strategy == StrategyNone and
	// selection == nil.
	strategy telemetry.Strategy
	// selection is the settled selection.
	// Invariant: len(selection) <= MaxRelevantDocs, no duplicates.
	selection []DocID
}

// progress is a set of the milestones a plan has passed.
type progress uint8

const (
	// progPublished: the plan's lexical ranking was published.
	progPublished progress = 1 << iota
	// progInitialPassed: the plan's initial point was reached.
	progInitialPassed
	// progSettled: the plan's selector settled.
	progSettled
)

// has reports whether the plan has passed milestone x.
func (p *plan) has(x progress) bool { return p.progress&x != 0 }

// NewSession returns an idle session with an empty surfaced set.
func NewSession() *Session {
	return &Session{}
}

// State returns the current plan's state (StateIdle before the first
// query). It is a field read, cheap enough to call after every step.
func (s *Session) State() State { return s.cur.state }

// Current returns the current plan, 0 before the first query.
func (s *Session) Current() PlanID { return s.cur.id }

// Closed reports whether the session was shut down.
func (s *Session) Closed() bool { return s.closed }

// Surfaced reports whether doc was delivered since the last reset.
func (s *Session) Surfaced(doc DocID) bool {
	_, ok := slices.BinarySearch(s.surfaced, doc)
	return ok
}

// SurfacedDocs returns the documents delivered since the last reset,
// sorted. The slice is the session's own and is never changed afterwards
// (a delivery or reset replaces it): the caller may keep it as a snapshot
// and search it, but must not modify it. It costs nothing: a long session
// used to sort its whole surfaced set on every query.
func (s *Session) SurfacedDocs() []DocID { return s.surfaced }

// addSurfaced adds docs to the surfaced set, replacing it with a new slice
// that merges in the documents that were not surfaced yet.
func (s *Session) addSurfaced(docs []DocID) {
	var buf [MaxRelevantDocs]DocID
	fresh := buf[:0]
	for _, d := range docs {
		if !s.Surfaced(d) {
			fresh = append(fresh, d)
		}
	}
	if len(fresh) == 0 {
		return
	}
	slices.Sort(fresh)
	fresh = slices.Compact(fresh) // only a mutant delivers a document twice
	merged := make([]DocID, 0, len(s.surfaced)+len(fresh))
	rest := s.surfaced
	for _, d := range fresh {
		i, _ := slices.BinarySearch(rest, d)
		merged = append(append(merged, rest[:i]...), d)
		rest = rest[i:]
	}
	s.surfaced = append(merged, rest...)
}
