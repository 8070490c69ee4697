package fsm

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The lifecycle core must take at most 1 µs per event (spec §8). Each
// benchmark below applies one kind of event to sessions prepared, outside
// the timer, in the state where that event does its real work; sessions
// are prepared in batches so the timer is paused rarely.
//
//	go test ./fsm -run '^$' -bench . -benchtime 200000x

// benchBatch sessions are prepared per timer pause: enough to amortise
// the pause, few enough to stay in the L2 cache like one engine's session.
const benchBatch = 256

// benchRanking is a realistic ranking: 50 matching documents.
var benchRanking = func() []DocID {
	r := make([]DocID, 50)
	for i := range r {
		r[i] = DocID(fmt.Sprintf("/home/u/.qwen/projects/p/memory/topic-%02d.md", i))
	}
	return r
}()

// prepared returns a session with 10 documents surfaced by earlier plans
// and a current plan driven through setup.
func prepared(setup ...func(s *Session) Event) *Session {
	s := NewSession()
	s.Step(QueryStarted(0))
	s.Step(DeterministicPublished(1, time.Millisecond, benchRanking[40:], 50, time.Millisecond))
	s.Step(InitialPoint(1, time.Millisecond))
	s.Step(SelectorSettled(1, time.Second, time.Second, benchRanking[42:50]))
	s.Step(ToolResultPoint(1, 2*time.Second))
	for _, f := range setup {
		s.Step(f(s))
	}
	return s
}

func query(*Session) Event { return QueryStarted(10 * time.Second) }
func publish(s *Session) Event {
	return DeterministicPublished(s.Current(), 10*time.Second+20*time.Millisecond, benchRanking, 500, 15*time.Millisecond)
}
func initial(s *Session) Event {
	return InitialPoint(s.Current(), 10*time.Second+20*time.Millisecond)
}
func settle(s *Session) Event {
	return SelectorSettled(s.Current(), 11*time.Second, time.Second, benchRanking[1:6])
}
func settleFailed(s *Session) Event {
	return SelectorFailed(s.Current(), 40*time.Second, 30*time.Second)
}
func toolResult(s *Session) Event { return ToolResultPoint(s.Current(), 12*time.Second) }
func turnEnd(s *Session) Event    { return TurnEnded(s.Current(), 12*time.Second) }
func abort(s *Session) Event      { return Abort(s.Current(), 12*time.Second) }
func reset(*Session) Event        { return Reset(12 * time.Second) }
func shutdown(*Session) Event     { return Shutdown(12 * time.Second) }
func staleSettle(s *Session) Event {
	return SelectorSettled(s.Current()-1, 12*time.Second, time.Second, benchRanking[:5])
}

func BenchmarkStep(b *testing.B) {
	cases := []struct {
		name  string
		setup []func(*Session) Event
		event func(*Session) Event
	}{
		{"query_started/replaces_open_plan", []func(*Session) Event{query, publish, initial}, query},
		{"deterministic_published", []func(*Session) Event{query}, publish},
		{"initial_point/fast", []func(*Session) Event{query, publish}, initial},
		{"initial_point/refined", []func(*Session) Event{query, publish, settle}, initial},
		{"selector_settled/after_fast", []func(*Session) Event{query, publish, initial}, settle},
		{"selector_settled/failed", []func(*Session) Event{query, publish, initial}, settleFailed},
		{"tool_result_point/refined", []func(*Session) Event{query, publish, initial, settle}, toolResult},
		{"turn_ended/no_safe_point", []func(*Session) Event{query, publish, initial, settle}, turnEnd},
		{"abort", []func(*Session) Event{query, publish, initial}, abort},
		{"reset", []func(*Session) Event{query, publish, initial}, reset},
		{"shutdown", []func(*Session) Event{query, publish, initial}, shutdown},
		{"dropped/stale_plan", []func(*Session) Event{query, publish, initial}, staleSettle},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			sessions := make([]*Session, benchBatch)
			events := make([]Event, benchBatch)
			// The setup's garbage is collected while the timer is
			// paused, so Step is not charged for it.
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			b.ReportAllocs()
			b.StopTimer()
			for done := 0; done < b.N; {
				n := min(benchBatch, b.N-done)
				runtime.GC()
				for i := range n {
					sessions[i] = prepared(c.setup...)
					events[i] = c.event(sessions[i])
				}
				b.StartTimer()
				for i := range n {
					sessions[i].Step(events[i])
				}
				b.StopTimer()
				done += n
			}
		})
	}
}

// BenchmarkStatelessFire measures firing the same transition through
// qmuntal/stateless, guards included; it is why Step applies transitions
// in its own switch (docs/decisions/0300-fsm-own-switch-over-stateless.md).
func BenchmarkStatelessFire(b *testing.B) {
	s := prepared(query, publish)
	sm := newShadow(func() State { return s.cur.state }, func(State) {})
	in := &guardInput{s: s, ev: initial(s)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := sm.FireCtx(ctx, TriggerInitialPoint, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanCycle runs whole plans on one session — query, ranking,
// initial point (fast), settle, tool-result point (refined), turn end —
// and reports the mean cost per event alongside the per-kind figures.
func BenchmarkPlanCycle(b *testing.B) {
	s := NewSession()
	b.ReportAllocs()
	var events int
	at := time.Duration(0)
	for b.Loop() {
		at += 10 * time.Second
		out := s.Step(QueryStarted(at))
		p := out.Plan
		s.Step(DeterministicPublished(p, at+20*time.Millisecond, benchRanking, 500, 15*time.Millisecond))
		s.Step(InitialPoint(p, at+20*time.Millisecond))
		s.Step(SelectorSettled(p, at+time.Second, time.Second, benchRanking[1:6]))
		s.Step(ToolResultPoint(p, at+2*time.Second))
		s.Step(TurnEnded(p, at+3*time.Second))
		if s.State() != StateRefinedDelivered {
			b.Fatalf("plan ended %v", s.State())
		}
		// Keep the surfaced set at a session's typical size.
		s.Step(Reset(at + 4*time.Second))
		events += 7
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
}
