package fsm

import (
	"time"

	"github.com/memrecall/memrecall/telemetry"
)

// DocID identifies a memory document inside the fsm. The engine maps its
// own identities (memory.ID) to DocIDs and back; the fsm only compares
// them for equality.
type DocID string

// PlanID names one recall plan. Plans are numbered from 1 in the order
// their queries started; 0 means no plan.
type PlanID uint64

// Event is one input to Session.Step. Build it with the constructors
// (QueryStarted, DeterministicPublished, …) so that only the fields a
// trigger reads are set.
//
// Times are offsets on the host's monotonic clock from any origin fixed
// for the session (for example time.Since(engineStart)); the fsm only
// subtracts them, so it never reads a clock.
type Event struct {
	Trigger Trigger
	// Plan is the plan the event belongs to. Events for a plan that is not
	// the current one are dropped. Ignored for session-wide triggers
	// (query_started, reset, shutdown).
	Plan PlanID
	// At is when the event happened.
	At time.Duration
	// Docs is the lexical ranking, best first, for deterministic_published
	// (the Session keeps the slice without copying it: do not modify it
	// afterwards), or the selector's answer for selector_settled (copied,
	// deduplicated, capped at MaxRelevantDocs).
	Docs []DocID
	// Failed marks a selector_settled whose call failed or hit its
	// ceiling: the selection becomes the lexical top MaxRelevantDocs with
	// strategy heuristic and Docs is ignored.
	Failed bool
	// Error classifies the failure of a Failed settle, for the Selection
	// telemetry (telemetry.ErrorNone otherwise).
	Error telemetry.ErrorKind
	// Scanned is the number of documents the deterministic stage
	// considered (deterministic_published).
	Scanned int
	// Took is the duration of the work the event reports: the scan for
	// deterministic_published, the selector call for selector_settled.
	Took time.Duration
}

// QueryStarted starts a new plan at time at.
func QueryStarted(at time.Duration) Event {
	return Event{Trigger: TriggerQueryStarted, At: at}
}

// DeterministicPublished reports plan's lexical ranking (best first, only
// documents with a score), the number of documents scanned and the scan's
// duration. ranking is retained, not copied.
func DeterministicPublished(plan PlanID, at time.Duration, ranking []DocID, scanned int, scan time.Duration) Event {
	return Event{Trigger: TriggerDeterministicPublished, Plan: plan, At: at, Docs: ranking, Scanned: scanned, Took: scan}
}

// SelectorSettled reports the selector's validated answer for plan; an
// empty answer means it selected nothing (strategy none), otherwise the
// strategy is model. took is the selector call's duration.
func SelectorSettled(plan PlanID, at, took time.Duration, selected []DocID) Event {
	return Event{Trigger: TriggerSelectorSettled, Plan: plan, At: at, Docs: selected, Took: took}
}

// SelectorFailed reports that plan's selector call failed or hit its
// ceiling; the fsm falls back to the lexical top MaxRelevantDocs of the
// published ranking (strategy heuristic).
func SelectorFailed(plan PlanID, at, took time.Duration) Event {
	return Event{Trigger: TriggerSelectorSettled, Plan: plan, At: at, Failed: true, Took: took}
}

// SelectorFailedWith is SelectorFailed with the failure's kind, which the
// Selection telemetry records.
func SelectorFailedWith(plan PlanID, at, took time.Duration, kind telemetry.ErrorKind) Event {
	ev := SelectorFailed(plan, at, took)
	ev.Error = kind
	return ev
}

// InitialPoint reports that plan's initial wait ended (by settle, by the
// deterministic result, or by the ceiling) and the initial prompt is being
// built.
func InitialPoint(plan PlanID, at time.Duration) Event {
	return Event{Trigger: TriggerInitialPoint, Plan: plan, At: at}
}

// ToolResultPoint reports that a tool result of plan's turn is going back
// to the model.
func ToolResultPoint(plan PlanID, at time.Duration) Event {
	return Event{Trigger: TriggerToolResultPoint, Plan: plan, At: at}
}

// TurnEnded reports that plan's turn finished with no further model
// request.
func TurnEnded(plan PlanID, at time.Duration) Event {
	return Event{Trigger: TriggerTurnEnded, Plan: plan, At: at}
}

// Reset clears the session (surfaced set included) and discards its open
// plan.
func Reset(at time.Duration) Event {
	return Event{Trigger: TriggerReset, At: at}
}

// Abort reports that the host cancelled plan's query.
func Abort(plan PlanID, at time.Duration) Event {
	return Event{Trigger: TriggerAbort, Plan: plan, At: at}
}

// Shutdown closes the session and discards its open plan.
func Shutdown(at time.Duration) Event {
	return Event{Trigger: TriggerShutdown, At: at}
}
