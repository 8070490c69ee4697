package fsm

import "context"

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
	in := input(args)
	return in.s.settleEndsPlan(in.ev)
}

// settlesToWait: the selection is kept for the initial or the next
// tool-result point.
func settlesToWait(_ context.Context, args ...any) bool {
	in := input(args)
	return !in.s.cur.has(progSettled) && !in.s.settleEndsPlan(in.ev)
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

// settleEndsPlan reports whether settling with ev ends the plan at once.
func (s *Session) settleEndsPlan(ev Event) bool {
	if s.cur.has(progSettled) || !s.cur.has(progInitialPassed) {
		return false
	}
	// The selection selectionFor would make, checked without building it
	// (two guards ask this on every settle after the initial point).
	docs, limit := ev.Docs, MaxRelevantDocs
	if ev.Failed {
		docs = s.cur.ranking
	} else if s.mut.has(mutNoSelectionCap) {
		limit = len(docs)
	}
	n := 0
	for i, d := range docs {
		if n == limit {
			break
		}
		if containsDoc(docs[:i], d) {
			continue
		}
		n++
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
