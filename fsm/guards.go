package fsm

import "context"

// The guards of the transition table. Each is a named, side-effect-free
// function of the session before the step and the event, with the
// signature stateless expects (stateless prints a guard by its function
// name, so the diagram reads like the rules). Step evaluates the same
// predicates, through the Session methods below, in its own switch.

// guardInput is what the table passes to guards and actions.
type guardInput struct {
	s  *Session
	ev Event
	// effect is set by the table's internal-transition actions, so a test
	// can compare it with what Step did.
	effect string
}

func input(args []any) *guardInput { return args[0].(*guardInput) }

// firstRanking: the plan has no ranking yet.
func firstRanking(_ context.Context, args ...any) bool { return !input(args).s.cur.published }

// rankingAlreadyPublished: a second ranking is ignored.
func rankingAlreadyPublished(_ context.Context, args ...any) bool {
	return input(args).s.cur.published
}

// alreadySettled: a second settle is ignored.
func alreadySettled(_ context.Context, args ...any) bool { return input(args).s.cur.settled }

// settlesWithNothingLeft: the initial point has passed and the incoming
// selection has nothing that was not surfaced — the plan ends now.
func settlesWithNothingLeft(_ context.Context, args ...any) bool {
	in := input(args)
	return in.s.settleEndsPlan(in.ev)
}

// settlesToWait: the selection is kept for the initial or the next
// tool-result point.
func settlesToWait(_ context.Context, args ...any) bool {
	in := input(args)
	return !in.s.cur.settled && !in.s.settleEndsPlan(in.ev)
}

// settledWithRemainder: at the initial point, the plan settled inside the
// window with something to deliver (spec §5.2).
func settledWithRemainder(_ context.Context, args ...any) bool {
	s := input(args).s
	return !s.cur.initialPassed && s.cur.settled && s.hasRemainder()
}

// settledWithNothingLeft: at the initial point, the plan settled inside
// the window with an empty or fully surfaced selection.
func settledWithNothingLeft(_ context.Context, args ...any) bool {
	s := input(args).s
	return !s.cur.initialPassed && s.cur.settled && !s.hasRemainder()
}

// fastAvailable: at the initial point, unsettled, with ranked documents
// not yet surfaced (spec §5.3).
func fastAvailable(_ context.Context, args ...any) bool {
	s := input(args).s
	return !s.cur.initialPassed && !s.cur.settled && s.hasFastDocs()
}

// noFastResult: at the initial point, unsettled, with nothing to deliver
// fast; the plan waits for a later point.
func noFastResult(_ context.Context, args ...any) bool {
	s := input(args).s
	return !s.cur.initialPassed && !s.cur.settled && !s.hasFastDocs()
}

// initialAlreadyPassed: a second initial point is ignored.
func initialAlreadyPassed(_ context.Context, args ...any) bool {
	return input(args).s.cur.initialPassed
}

// remainderReady: at a tool-result point, the plan is settled with
// documents left to deliver (spec §5.4).
func remainderReady(_ context.Context, args ...any) bool {
	s := input(args).s
	return s.cur.initialPassed && s.cur.settled && s.hasRemainder()
}

// remainderNotReady: at a tool-result point, nothing can be delivered yet.
func remainderNotReady(_ context.Context, args ...any) bool {
	s := input(args).s
	return !(s.cur.initialPassed && s.cur.settled && s.hasRemainder())
}

// The table's internal-transition actions only name the effect Step has;
// the effect itself happens in Step.

func recordRanking(_ context.Context, args ...any) error {
	input(args).effect = "recordRanking"
	return nil
}

func recordSelection(_ context.Context, args ...any) error {
	input(args).effect = "recordSelection"
	return nil
}

func passInitialPoint(_ context.Context, args ...any) error {
	input(args).effect = "passInitialPoint"
	return nil
}

func clearSurfaced(_ context.Context, args ...any) error {
	input(args).effect = "clearSurfaced"
	return nil
}

func closeSession(_ context.Context, args ...any) error {
	input(args).effect = "closeSession"
	return nil
}

// settleEndsPlan reports whether settling with ev ends the plan at once.
func (s *Session) settleEndsPlan(ev Event) bool {
	if s.cur.settled || !s.cur.initialPassed {
		return false
	}
	sel, _ := s.selectionFor(ev)
	for _, d := range sel {
		if !s.excluded(d) {
			return false
		}
	}
	return true
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
