package fsm

import (
	"context"

	"github.com/memrecall/memrecall/telemetry"
)

// The guards of the lifecycle's rows. Each is a named, side-effect-free
// function of the session before the step and the event, with the
// signature stateless expects (stateless prints a guard by its function
// name, so the diagram reads like the rules). Step calls the same
// functions with a guardInput the session keeps, so no call allocates.

// guardInput is what guards receive: the session before the step and the
// event.
type guardInput struct {
	s  *Session
	ev Event
	// sel and strategy memoise selectionFor(ev) for the step: both settle
	// rows' guards and the action of the row taken need it.
	sel      []DocID
	strategy telemetry.Strategy
	selKnown bool
}

// selection is selectionFor(ev), computed once per step.
func (in *guardInput) selection() ([]DocID, telemetry.Strategy) {
	if !in.selKnown {
		in.sel, in.strategy = in.s.selectionFor(in.ev)
		in.selKnown = true
	}
	return in.sel, in.strategy
}

// settleEnds reports whether settling with the step's event ends the plan
// at once: the initial point has passed and the selection it makes has
// nothing that was not surfaced.
func (in *guardInput) settleEnds() bool {
	s := in.s
	if s.cur.has(progSettled) || !s.cur.has(progInitialPassed) {
		return false
	}
	sel, _ := in.selection()
	return s.countNew(sel) == 0
}

func input(args []any) *guardInput { return args[0].(*guardInput) }

// firstRanking: the plan has no ranking yet.
func firstRanking(_ context.Context, args ...any) bool {
	return !input(args).s.cur.has(progPublished)
}

// rankingAlreadyPublished: a second ranking is ignored.
func rankingAlreadyPublished(_ context.Context, args ...any) bool {
	return input(args).s.cur.has(progPublished)
}

// alreadySettled: a second settle is ignored.
func alreadySettled(_ context.Context, args ...any) bool {
	return input(args).s.cur.has(progSettled)
}

// settlesWithNothingLeft: the initial point has passed and the incoming
// selection has nothing that was not surfaced — the plan ends now.
func settlesWithNothingLeft(_ context.Context, args ...any) bool {
	return input(args).settleEnds()
}

// settlesToWait: the selection is kept for the initial or the next
// tool-result point.
func settlesToWait(_ context.Context, args ...any) bool {
	in := input(args)
	return !in.s.cur.has(progSettled) && !in.settleEnds()
}

// settledWithRemainder: at the initial point, the plan settled inside the
// window with something to deliver (spec §5.2).
func settledWithRemainder(_ context.Context, args ...any) bool {
	s := input(args).s
	return s.initialOpen() && s.cur.has(progSettled) && s.hasRemainder()
}

// settledWithNothingLeft: at the initial point, the plan settled inside
// the window with an empty or fully surfaced selection.
func settledWithNothingLeft(_ context.Context, args ...any) bool {
	s := input(args).s
	return s.initialOpen() && s.cur.has(progSettled) && !s.hasRemainder()
}

// fastAvailable: at the initial point, unsettled, with ranked documents
// not yet surfaced (spec §5.3).
func fastAvailable(_ context.Context, args ...any) bool {
	s := input(args).s
	return s.initialOpen() && !s.cur.has(progSettled) && s.hasFastDocs()
}

// noFastResult: at the initial point, unsettled, with nothing to deliver
// fast; the plan waits for a later point.
func noFastResult(_ context.Context, args ...any) bool {
	s := input(args).s
	return s.initialOpen() && !s.cur.has(progSettled) && !s.hasFastDocs()
}

// initialAlreadyPassed: a second initial point is ignored.
func initialAlreadyPassed(_ context.Context, args ...any) bool {
	return !input(args).s.initialOpen()
}

// remainderReady: at a tool-result point, the plan is settled with
// documents left to deliver (spec §5.4).
func remainderReady(_ context.Context, args ...any) bool {
	return input(args).s.remainderReady()
}

// remainderNotReady: at a tool-result point, nothing can be delivered yet.
func remainderNotReady(_ context.Context, args ...any) bool {
	return !input(args).s.remainderReady()
}

// initialOpen reports whether the plan's initial point is still ahead.
func (s *Session) initialOpen() bool {
	return !s.cur.has(progInitialPassed) || s.mut.has(mutInitialTwice)
}

func (s *Session) remainderReady() bool {
	return s.cur.has(progInitialPassed) && s.cur.has(progSettled) && s.hasRemainder()
}

func (s *Session) hasRemainder() bool { return s.remainderLen() > 0 }

func (s *Session) hasFastDocs() bool {
	for _, d := range s.cur.ranking {
		if !s.excluded(d) {
			return true
		}
	}
	return false
}
