package telemetry

import (
	"fmt"
	"time"
)

// Selection records how one plan's documents were selected. It is emitted
// once per plan, when the selector settles; a plan that ends before its
// selector settles emits none (spec §4.5: a cancelled call selects nothing,
// and its Delivery event already says why the plan ended).
type Selection struct {
	Strategy Strategy
	// Scanned is the number of topic documents the deterministic stage
	// considered; 0 when the plan settled before the ranking was published.
	Scanned int
	// Selected is the number of documents selected (at most five).
	Selected int
	// Scan is the time the deterministic stage spent reading the tree.
	Scan time.Duration
	// Fast is the time from the query to the published deterministic
	// result; 0 when it was not published.
	Fast time.Duration
	// Selector is the time the selector call took.
	Selector time.Duration
	// Total is the time from the query to the settle.
	Total time.Duration
	// Error classifies the selector failure behind a heuristic selection
	// (a wrong key shows as http_status, a dead endpoint as transport, the
	// ceiling as timeout); ErrorNone when the selector answered or no
	// selector is configured. Never the error's text.
	Error ErrorKind
}

// String renders the event as space-separated key=value pairs, the form
// used in logs of tests and in scenario scripts; error is written only for
// a failure.
func (s Selection) String() string {
	text := fmt.Sprintf("selection strategy=%s scanned=%d selected=%d scan=%s fast=%s selector=%s total=%s",
		s.Strategy, s.Scanned, s.Selected, s.Scan, s.Fast, s.Selector, s.Total)
	if s.Error != ErrorNone {
		text += " error=" + s.Error.String()
	}
	return text
}

// Delivery records one delivery of a plan or its discard.
//
// Invariant: Point == PointDiscarded exactly when Reason != ReasonNone, and
// then Docs == 0 — Docs counts documents injected by this event, so the
// sum of Docs over a session equals the documents injected.
// Invariant: Phase == PhaseFast implies Strategy == StrategyHeuristic and
// Point == PointInitial.
type Delivery struct {
	Phase    Phase
	Point    DeliveryPoint
	Reason   DiscardReason
	Strategy Strategy
	// Docs is the number of documents injected by this event.
	Docs int
	// Latency is the time from the query to this event.
	Latency time.Duration
}

// String renders the event as space-separated key=value pairs; reason is
// written only for discards.
func (d Delivery) String() string {
	if d.Reason != ReasonNone {
		return fmt.Sprintf("delivery phase=%s point=%s reason=%s strategy=%s docs=%d latency=%s",
			d.Phase, d.Point, d.Reason, d.Strategy, d.Docs, d.Latency)
	}
	return fmt.Sprintf("delivery phase=%s point=%s strategy=%s docs=%d latency=%s",
		d.Phase, d.Point, d.Strategy, d.Docs, d.Latency)
}

// Event is either a Selection or a Delivery, in the order the lifecycle
// produced them. It lets one ordered list carry both kinds.
type Event struct {
	Kind      Kind
	Selection Selection // set when Kind == KindSelection
	Delivery  Delivery  // set when Kind == KindDelivery
}

// SelectionEvent wraps s in an Event.
func SelectionEvent(s Selection) Event { return Event{Kind: KindSelection, Selection: s} }

// DeliveryEvent wraps d in an Event.
func DeliveryEvent(d Delivery) Event { return Event{Kind: KindDelivery, Delivery: d} }

// String renders the payload that Kind selects.
func (e Event) String() string {
	switch e.Kind {
	case KindSelection:
		return e.Selection.String()
	case KindDelivery:
		return e.Delivery.String()
	}
	return fmt.Sprintf("event kind=%s", e.Kind)
}

// SendTo writes the event to sink; an event with an unknown Kind is not
// sent.
func (e Event) SendTo(sink Sink) {
	switch e.Kind {
	case KindSelection:
		sink.Selection(e.Selection)
	case KindDelivery:
		sink.Delivery(e.Delivery)
	}
}
