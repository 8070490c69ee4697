package fsm

import "github.com/memrecall/memrecall/telemetry"

// Output is what one Step decided. It is a plain value the caller owns:
// the fsm keeps no reference to it.
//
// The output is authoritative: the host injects exactly Deliver.Docs, all
// of them, in order, and sends Telemetry to its sink. That keeps the
// delivery telemetry's document counts equal to the documents injected.
// The prompt byte budget must therefore be large enough for
// MaxRelevantDocs documents each cut at the body window plus headers; the
// engine sizes it so.
type Output struct {
	// Plan is the plan the event was applied to: the new plan for
	// query_started, the event's plan otherwise; 0 when Dropped.
	Plan PlanID
	// State is the current plan's state after the step.
	State State
	// Deliver is what to inject into the prompt being built now; its Docs
	// are empty when there is nothing to inject.
	Deliver Delivery
	// Closed is the plan that became terminal in this step (0 if none):
	// the host cancels its selector call. For query_started it is the
	// replaced plan.
	Closed PlanID
	// Telemetry lists the events to emit, in order.
	Telemetry []telemetry.Event
	// Dropped is true when the event was not applied: its plan is not the
	// current one (a late result of an old query, or an unknown plan) or
	// the session was shut down.
	Dropped bool
}

// Delivery is a set of documents to inject now.
//
// Invariant: len(Docs) <= MaxRelevantDocs, and <= MaxFastDocs when Phase
// is fast; no document in Docs was surfaced before in the session since
// the last reset.
type Delivery struct {
	// Phase is fast for the deterministic top two, refined otherwise.
	Phase telemetry.Phase
	// Point is initial or tool_result, the prompt being built.
	Point telemetry.DeliveryPoint
	// Strategy is heuristic for fast and for a failed selector, model for
	// the selector's answer.
	Strategy telemetry.Strategy
	// Docs are the documents to inject, in prompt order.
	Docs []DocID
}

// Empty reports whether there is nothing to inject.
func (d Delivery) Empty() bool { return len(d.Docs) == 0 }

// Send writes the output's telemetry to sink (nil: nowhere).
func (o Output) Send(sink telemetry.Sink) { telemetry.Send(sink, o.Telemetry...) }
