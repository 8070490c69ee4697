package fsm

import (
	"context"

	"github.com/qmuntal/stateless"
)

// edgeKind is how a table row treats its trigger.
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

// edge is one row of the transition table.
type edge struct {
	from    State
	trigger Trigger
	to      State // for edgeMove and edgeRestart
	kind    edgeKind
	guard   stateless.GuardFunc  // nil: unconditional
	action  stateless.ActionFunc // for edgeInternal
}

// table returns the declared lifecycle: every state change Step makes is
// one of these rows (a test fires it beside Step), and the diagrams are
// drawn from it. Events dropped by Step's shared checks (shut-down
// session, stale plan) never reach it. Rows of one state and trigger have
// mutually exclusive guards.
func table() []edge {
	var t []edge
	add := func(e edge) { t = append(t, e) }
	// A new query replaces whatever plan there was.
	add(edge{from: StateIdle, trigger: TriggerQueryStarted, to: StatePending})
	add(edge{from: StatePending, trigger: TriggerQueryStarted, to: StatePending, kind: edgeRestart})
	for _, st := range []State{StateFastDelivered, StateRefinedDelivered, StateDiscarded} {
		add(edge{from: st, trigger: TriggerQueryStarted, to: StatePending})
	}
	// Session-wide triggers outside an open plan.
	for _, st := range []State{StateIdle, StateRefinedDelivered, StateDiscarded} {
		add(edge{from: st, trigger: TriggerReset, kind: edgeInternal, action: clearSurfaced})
		add(edge{from: st, trigger: TriggerShutdown, kind: edgeInternal, action: closeSession})
	}
	// Open plans.
	for _, st := range []State{StatePending, StateFastDelivered} {
		if st == StatePending {
			add(edge{from: st, trigger: TriggerDeterministicPublished, kind: edgeInternal, guard: firstRanking, action: recordRanking})
			add(edge{from: st, trigger: TriggerDeterministicPublished, kind: edgeIgnore, guard: rankingAlreadyPublished})
			add(edge{from: st, trigger: TriggerInitialPoint, to: StateRefinedDelivered, guard: settledWithRemainder})
			add(edge{from: st, trigger: TriggerInitialPoint, to: StateDiscarded, guard: settledWithNothingLeft})
			add(edge{from: st, trigger: TriggerInitialPoint, to: StateFastDelivered, guard: fastAvailable})
			add(edge{from: st, trigger: TriggerInitialPoint, kind: edgeInternal, guard: noFastResult, action: passInitialPoint})
			add(edge{from: st, trigger: TriggerInitialPoint, kind: edgeIgnore, guard: initialAlreadyPassed})
		} else {
			add(edge{from: st, trigger: TriggerDeterministicPublished, kind: edgeIgnore})
			add(edge{from: st, trigger: TriggerInitialPoint, kind: edgeIgnore})
		}
		add(edge{from: st, trigger: TriggerSelectorSettled, to: StateDiscarded, guard: settlesWithNothingLeft})
		add(edge{from: st, trigger: TriggerSelectorSettled, kind: edgeInternal, guard: settlesToWait, action: recordSelection})
		add(edge{from: st, trigger: TriggerSelectorSettled, kind: edgeIgnore, guard: alreadySettled})
		add(edge{from: st, trigger: TriggerToolResultPoint, to: StateRefinedDelivered, guard: remainderReady})
		add(edge{from: st, trigger: TriggerToolResultPoint, kind: edgeIgnore, guard: remainderNotReady})
		for _, tr := range []Trigger{TriggerTurnEnded, TriggerAbort, TriggerReset, TriggerShutdown} {
			add(edge{from: st, trigger: tr, to: StateDiscarded})
		}
	}
	// Terminal plans ignore their own late events.
	for _, st := range []State{StateRefinedDelivered, StateDiscarded} {
		for _, tr := range []Trigger{TriggerDeterministicPublished, TriggerSelectorSettled, TriggerInitialPoint, TriggerToolResultPoint, TriggerTurnEnded, TriggerAbort} {
			add(edge{from: st, trigger: tr, kind: edgeIgnore})
		}
	}
	return t
}

// configure declares the table on sm.
func configure(sm *stateless.StateMachine) {
	for _, e := range table() {
		var guards []stateless.GuardFunc
		if e.guard != nil {
			guards = append(guards, e.guard)
		}
		c := sm.Configure(e.from)
		switch e.kind {
		case edgeMove:
			c.Permit(e.trigger, e.to, guards...)
		case edgeRestart:
			c.PermitReentry(e.trigger, guards...)
		case edgeInternal:
			c.InternalTransition(e.trigger, e.action, guards...)
		case edgeIgnore:
			c.Ignore(e.trigger, guards...)
		}
	}
}

// newMachine returns the table as a stateless machine starting idle.
func newMachine() *stateless.StateMachine {
	sm := stateless.NewStateMachine(StateIdle)
	configure(sm)
	return sm
}

// newShadow returns the table as a stateless machine that reads its
// state from state() and reports each state it is set to through set; the
// table agreement test fires it beside Step.
func newShadow(state func() State, set func(State)) *stateless.StateMachine {
	sm := stateless.NewStateMachineWithExternalStorage(
		func(context.Context) (stateless.State, error) { return state(), nil },
		func(_ context.Context, st stateless.State) error { set(st.(State)); return nil },
		stateless.FiringImmediate,
	)
	configure(sm)
	return sm
}
