package telemetry

import "fmt"

// Strategy says how a plan's documents were selected. It is orthogonal to
// Phase: a fast delivery is always StrategyHeuristic, a refined one is
// StrategyModel, or StrategyHeuristic when the selector failed.
type Strategy uint8

const (
	// StrategyNone means nothing was selected: the selector answered with
	// no documents, or the plan ended before the selector settled.
	StrategyNone Strategy = iota
	// StrategyHeuristic is the lexical ranking: the fast delivery, and the
	// lexical top five when the selector failed or hit its ceiling.
	StrategyHeuristic
	// StrategyModel is the model selector's validated answer.
	StrategyModel
)

// String returns the name used in logs and specs: none, heuristic, model.
func (s Strategy) String() string {
	switch s {
	case StrategyNone:
		return "none"
	case StrategyHeuristic:
		return "heuristic"
	case StrategyModel:
		return "model"
	}
	return fmt.Sprintf("Strategy(%d)", uint8(s))
}

// Phase says which of a plan's two deliveries an event is about. The zero
// value is invalid so a forgotten field shows up in tests.
type Phase uint8

const (
	// PhaseFast is the two-document deterministic delivery in the initial
	// prompt.
	PhaseFast Phase = iota + 1
	// PhaseRefined is the plan's selected result. Every plan ends with
	// exactly one refined event: delivered at a point, or discarded.
	PhaseRefined
)

// String returns fast or refined.
func (p Phase) String() string {
	switch p {
	case PhaseFast:
		return "fast"
	case PhaseRefined:
		return "refined"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// DeliveryPoint says where in the turn documents were injected, or that
// they were not. The zero value is invalid.
type DeliveryPoint uint8

const (
	// PointInitial is the initial prompt, after the bounded initial wait.
	PointInitial DeliveryPoint = iota + 1
	// PointToolResult is the next prompt after a tool result went back.
	PointToolResult
	// PointDiscarded means nothing was injected; DiscardReason says why.
	PointDiscarded
)

// String returns initial, tool_result or discarded.
func (d DeliveryPoint) String() string {
	switch d {
	case PointInitial:
		return "initial"
	case PointToolResult:
		return "tool_result"
	case PointDiscarded:
		return "discarded"
	}
	return fmt.Sprintf("DeliveryPoint(%d)", uint8(d))
}

// DiscardReason says why a plan ended without delivering its refined
// result. ReasonNone (the zero value) is used on events that delivered.
type DiscardReason uint8

const (
	// ReasonNone marks an event that is not a discard.
	ReasonNone DiscardReason = iota
	// ReasonNoSafeDeliveryPoint: the turn ended with the plan still open,
	// so no prompt was left to carry the result.
	ReasonNoSafeDeliveryPoint
	// ReasonNewQuery: a new user query replaced the plan.
	ReasonNewQuery
	// ReasonReset: the host reset the session.
	ReasonReset
	// ReasonAbort: the host cancelled the query.
	ReasonAbort
	// ReasonShutdown: the engine shut down.
	ReasonShutdown
	// ReasonNoRelevantResults: the selection was empty.
	ReasonNoRelevantResults
	// ReasonAlreadyDelivered: every selected document had already been
	// surfaced in this session.
	ReasonAlreadyDelivered
)

// String returns the reason's snake_case name as written in spec §6, or
// the empty string for ReasonNone.
func (r DiscardReason) String() string {
	switch r {
	case ReasonNone:
		return ""
	case ReasonNoSafeDeliveryPoint:
		return "no_safe_delivery_point"
	case ReasonNewQuery:
		return "new_query"
	case ReasonReset:
		return "reset"
	case ReasonAbort:
		return "abort"
	case ReasonShutdown:
		return "shutdown"
	case ReasonNoRelevantResults:
		return "no_relevant_results"
	case ReasonAlreadyDelivered:
		return "already_delivered"
	}
	return fmt.Sprintf("DiscardReason(%d)", uint8(r))
}

// Kind tells which of an Event's two payloads is set.
type Kind uint8

const (
	// KindSelection marks an Event carrying a Selection.
	KindSelection Kind = iota + 1
	// KindDelivery marks an Event carrying a Delivery.
	KindDelivery
)

// String returns selection or delivery.
func (k Kind) String() string {
	switch k {
	case KindSelection:
		return "selection"
	case KindDelivery:
		return "delivery"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}
