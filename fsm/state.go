package fsm

import "fmt"

// State is the state of the session's current plan. A plan is created
// pending and ends refined-delivered or discarded; StateIdle is the
// session before its first query.
type State uint8

const (
	// StateIdle: no query yet in this session.
	StateIdle State = iota
	// StatePending: the plan is open and nothing has been injected yet.
	StatePending
	// StateFastDelivered: the fast documents went into the initial prompt;
	// the plan stays open for its refined remainder.
	StateFastDelivered
	// StateRefinedDelivered: the refined result was injected. Terminal.
	StateRefinedDelivered
	// StateDiscarded: the plan ended without (more) delivery. Terminal.
	StateDiscarded
)

// States lists every State in declaration order.
var States = [...]State{StateIdle, StatePending, StateFastDelivered, StateRefinedDelivered, StateDiscarded}

// String returns the state's name as written in spec §5.
func (s State) String() string {
	switch s {
	case StateIdle:
		return "idle"
	case StatePending:
		return "pending"
	case StateFastDelivered:
		return "fast-delivered"
	case StateRefinedDelivered:
		return "refined-delivered"
	case StateDiscarded:
		return "discarded"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Open reports whether a plan in state s can still deliver or be
// discarded: pending or fast-delivered.
func (s State) Open() bool { return s == StatePending || s == StateFastDelivered }

// Terminal reports whether s is an end state of a plan.
func (s State) Terminal() bool { return s == StateRefinedDelivered || s == StateDiscarded }

// Trigger is the kind of an Event.
type Trigger uint8

const (
	// TriggerQueryStarted starts a new plan; the previous plan, if still
	// open, is discarded with new_query. Its Event.Plan is ignored: the
	// session allocates the new PlanID and returns it in Output.Plan.
	TriggerQueryStarted Trigger = iota + 1
	// TriggerDeterministicPublished carries the lexical ranking.
	TriggerDeterministicPublished
	// TriggerSelectorSettled carries the selector's answer or its failure.
	TriggerSelectorSettled
	// TriggerInitialPoint: the initial wait is over and the first model
	// request is about to be built.
	TriggerInitialPoint
	// TriggerToolResultPoint: a tool result is going back to the model and
	// the next prompt is about to be built.
	TriggerToolResultPoint
	// TriggerTurnEnded: the turn finished with no further model request.
	TriggerTurnEnded
	// TriggerReset clears the session: the open plan is discarded with
	// reset and the surfaced set is emptied. Session-wide: Event.Plan is
	// ignored.
	TriggerReset
	// TriggerAbort: the host cancelled the plan's query.
	TriggerAbort
	// TriggerShutdown closes the session: the open plan is discarded with
	// shutdown and every later event is dropped. Session-wide: Event.Plan
	// is ignored.
	TriggerShutdown
)

// Triggers lists every Trigger in declaration order.
var Triggers = [...]Trigger{
	TriggerQueryStarted, TriggerDeterministicPublished, TriggerSelectorSettled,
	TriggerInitialPoint, TriggerToolResultPoint, TriggerTurnEnded,
	TriggerReset, TriggerAbort, TriggerShutdown,
}

// String returns the trigger's snake_case name, the word used in scenario
// scripts and in the diagram.
func (t Trigger) String() string {
	switch t {
	case TriggerQueryStarted:
		return "query_started"
	case TriggerDeterministicPublished:
		return "deterministic_published"
	case TriggerSelectorSettled:
		return "selector_settled"
	case TriggerInitialPoint:
		return "initial_point"
	case TriggerToolResultPoint:
		return "tool_result_point"
	case TriggerTurnEnded:
		return "turn_ended"
	case TriggerReset:
		return "reset"
	case TriggerAbort:
		return "abort"
	case TriggerShutdown:
		return "shutdown"
	}
	return fmt.Sprintf("Trigger(%d)", uint8(t))
}

// sessionWide reports whether t applies to the session whatever plan the
// event names.
func (t Trigger) sessionWide() bool {
	return t == TriggerQueryStarted || t == TriggerReset || t == TriggerShutdown
}
