package fsm

import (
	"context"

	"github.com/qmuntal/stateless"
)

// row is one rule of the lifecycle: in the state it is listed under, on
// trigger on, when guard holds (nil: always), run action (nil: the event
// is ignored) and become state to, adding sets to the plan's progress.
//
// The rows are the one statement of the lifecycle. Step runs the row
// whose guard holds; the stateless machine behind DOT and Mermaid is
// configured from the same rows; guards and actions are named functions,
// so the diagrams read like the rules.
type row struct {
	on     Trigger
	guard  stateless.GuardFunc
	action action
	to     State
	sets   progress
}

// action is a row's effect, applied before the row's state change: it
// sees the plan as it was, records what the event carries and returns the
// output (deliveries, telemetry, the plan closed). Actions never assign
// the state or the progress: become does.
type action func(s *Session, ev Event) Output

// lifecycle lists the rows of each state. Rows of one state and trigger
// have mutually exclusive guards (the table test fires the stateless
// machine, which refuses two guards that hold at once), and every
// (state, trigger) pair has a row for every case, so Step always finds
// one. Events dropped by Step's shared checks (shut-down session, stale
// plan) never reach the table. It is never written.
var lifecycle = [...][]row{
	StateIdle: {
		{on: TriggerQueryStarted, action: openPlan, to: StatePending},
		{on: TriggerReset, action: clearSurfaced, to: StateIdle},
		{on: TriggerShutdown, action: closeSession, to: StateIdle},
	},
	StatePending: append([]row{
		{on: TriggerQueryStarted, action: replacePlan, to: StatePending},
		{on: TriggerDeterministicPublished, guard: firstRanking, action: recordRanking, to: StatePending, sets: progPublished},
		{on: TriggerDeterministicPublished, guard: rankingAlreadyPublished, to: StatePending},
		{on: TriggerInitialPoint, guard: settledWithRemainder, action: deliverRefined, to: StateRefinedDelivered, sets: progInitialPassed},
		{on: TriggerInitialPoint, guard: settledWithNothingLeft, action: discardSettled, to: StateDiscarded, sets: progInitialPassed},
		{on: TriggerInitialPoint, guard: fastAvailable, action: deliverFast, to: StateFastDelivered, sets: progInitialPassed},
		{on: TriggerInitialPoint, guard: noFastResult, action: passInitialPoint, to: StatePending, sets: progInitialPassed},
		{on: TriggerInitialPoint, guard: initialAlreadyPassed, to: StatePending},
	}, openRows(StatePending)...),
	StateFastDelivered: append([]row{
		{on: TriggerQueryStarted, action: replacePlan, to: StatePending},
		{on: TriggerDeterministicPublished, to: StateFastDelivered},
		{on: TriggerInitialPoint, to: StateFastDelivered},
	}, openRows(StateFastDelivered)...),
	StateRefinedDelivered: terminalRows(StateRefinedDelivered),
	StateDiscarded:        terminalRows(StateDiscarded),
}

// openRows are the rows an open plan (pending or fast-delivered, st) has
// for the selector's settle, a tool-result point and the four ways a plan
// ends.
func openRows(st State) []row {
	return []row{
		{on: TriggerSelectorSettled, guard: settlesWithNothingLeft, action: settleAndEnd, to: StateDiscarded, sets: progSettled},
		{on: TriggerSelectorSettled, guard: settlesToWait, action: recordSelection, to: st, sets: progSettled},
		{on: TriggerSelectorSettled, guard: alreadySettled, to: st},
		{on: TriggerToolResultPoint, guard: remainderReady, action: deliverRefined, to: StateRefinedDelivered},
		{on: TriggerToolResultPoint, guard: remainderNotReady, to: st},
		{on: TriggerTurnEnded, action: endTurn, to: StateDiscarded},
		{on: TriggerAbort, action: abortPlan, to: StateDiscarded},
		{on: TriggerReset, action: resetSession, to: StateDiscarded},
		{on: TriggerShutdown, action: shutdownSession, to: StateDiscarded},
	}
}

// terminalRows are the rows of an ended plan: a new query opens the next
// plan, reset and shutdown act on the session, and the plan's own late
// events are ignored.
func terminalRows(st State) []row {
	return []row{
		{on: TriggerQueryStarted, action: openPlan, to: StatePending},
		{on: TriggerReset, action: clearSurfaced, to: st},
		{on: TriggerShutdown, action: closeSession, to: st},
		{on: TriggerDeterministicPublished, to: st},
		{on: TriggerSelectorSettled, to: st},
		{on: TriggerInitialPoint, to: st},
		{on: TriggerToolResultPoint, to: st},
		{on: TriggerTurnEnded, to: st},
		{on: TriggerAbort, to: st},
	}
}

// edgeKind is how a row shows in stateless's terms.
type edgeKind uint8

const (
	// edgeMove changes the plan's state (stateless Permit).
	edgeMove edgeKind = iota
	// edgeRestart leaves and re-enters the same state: a new plan replaces
	// a pending one (stateless PermitReentry).
	edgeRestart
	// edgeInternal keeps the state but has an effect (stateless
	// InternalTransition).
	edgeInternal
	// edgeIgnore keeps the state and has no effect (stateless Ignore).
	edgeIgnore
)

// kind says how row r of state from shows in the diagram.
func (r *row) kind(from State) edgeKind {
	switch {
	case r.to != from:
		return edgeMove
	case r.on == TriggerQueryStarted:
		return edgeRestart
	case r.action == nil:
		return edgeIgnore
	}
	return edgeInternal
}

// appliedByStep is the stateless action of every internal row: the
// machine is configured for its introspection and its diagram, and for
// the test that fires it beside Step; the effect itself is the row's
// action, which only Step runs.
func appliedByStep(context.Context, ...any) error { return nil }

// configure declares the rows on sm.
func configure(sm *stateless.StateMachine) {
	for _, from := range States {
		c := sm.Configure(from)
		for i := range lifecycle[from] {
			r := &lifecycle[from][i]
			var guards []stateless.GuardFunc
			if r.guard != nil {
				guards = append(guards, r.guard)
			}
			switch r.kind(from) {
			case edgeMove:
				c.Permit(r.on, r.to, guards...)
			case edgeRestart:
				c.PermitReentry(r.on, guards...)
			case edgeInternal:
				c.InternalTransition(r.on, appliedByStep, guards...)
			case edgeIgnore:
				c.Ignore(r.on, guards...)
			}
		}
	}
}

// newMachine returns the rows as a stateless machine starting idle.
func newMachine() *stateless.StateMachine {
	sm := stateless.NewStateMachine(StateIdle)
	configure(sm)
	return sm
}

// newShadow returns the rows as a stateless machine that reads its state
// from state() and reports each state it is set to through set; the table
// test fires it beside Step.
func newShadow(state func() State, set func(State)) *stateless.StateMachine {
	sm := stateless.NewStateMachineWithExternalStorage(
		func(context.Context) (stateless.State, error) { return state(), nil },
		func(_ context.Context, st stateless.State) error { set(st.(State)); return nil },
		stateless.FiringImmediate,
	)
	configure(sm)
	return sm
}
