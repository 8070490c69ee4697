package recall

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/telemetry"
)

// Every test here runs in a synctest bubble: the selector's latency, the
// initial ceiling and the scan delays are fake time, so the tests take no
// real time and never race a clock. The bubble also proves that no
// goroutine outlives Shutdown: synctest.Test fails if any is left blocked.

func checkInjection(t *testing.T, what string, got Injection, want []memory.ID, phase telemetry.Phase, strategy telemetry.Strategy) {
	t.Helper()
	if diff := cmp.Diff(want, got.Docs); diff != "" {
		t.Errorf("%s docs (-want +got):\n%s", what, diff)
	}
	if len(want) == 0 {
		if got.Text != "" {
			t.Errorf("%s: empty injection has text %q", what, got.Text)
		}
		return
	}
	if got.Phase != phase || got.Strategy != strategy {
		t.Errorf("%s: phase %s strategy %s, want %s %s", what, got.Phase, got.Strategy, phase, strategy)
	}
	if got.Text == "" || len(got.Text) > MaxPromptBytes {
		t.Errorf("%s: text of %d bytes", what, len(got.Text))
	}
}

func checkDeliveries(t *testing.T, rec *telemetry.Recorder, want ...string) {
	t.Helper()
	if diff := cmp.Diff(want, deliveries(rec)); diff != "" {
		t.Errorf("delivery telemetry (-want +got):\n%s", diff)
	}
}

// A selector slower than the initial wait: the wait ends on the
// deterministic result, the fast two go into the initial prompt, and the
// selector's answer minus those two arrives at the next tool result.
func TestFastThenRefinedAtToolResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, rec := f.engine(f.answer(time.Second, "deploy-2", "deploy-6", "grafana", "deploy-1"), 0)
		defer e.Shutdown()

		p := e.Query(t.Context(), Query{Text: "deploy"})
		start := time.Now()
		inj := p.Initial(t.Context())
		if waited := time.Since(start); waited >= initialCeiling {
			t.Errorf("initial wait took %v; it should end on the deterministic result", waited)
		}
		checkInjection(t, "initial", inj, f.ids("deploy-1", "deploy-2"), telemetry.PhaseFast, telemetry.StrategyHeuristic)

		// Before the selector answers, a tool result carries nothing.
		checkInjection(t, "early tool result", p.ToolResult(), nil, 0, 0)
		<-p.Settled()
		// The overlap (deploy-1, deploy-2) is removed; the answer order is kept.
		checkInjection(t, "tool result", p.ToolResult(), f.ids("deploy-6", "grafana"), telemetry.PhaseRefined, telemetry.StrategyModel)
		checkInjection(t, "second tool result", p.ToolResult(), nil, 0, 0)
		p.End()
		checkDeliveries(t, rec,
			"delivery phase=fast point=initial strategy=heuristic docs=2 latency=0s",
			"delivery phase=refined point=tool_result strategy=model docs=2 latency=0s",
		)
		if tr := p.Trace(); tr.Strategy != telemetry.StrategyModel || tr.ManifestDocs != 8 || tr.Scanned != 8 || len(tr.Ranked) != 6 {
			t.Errorf("trace: %+v", tr)
		}
	})
}

// The scan is slower than the ceiling: the initial wait expires, nothing is
// injected, and the plan stays open — budget expiry never aborts recall.
func TestBudgetExpiryWithSlowScanAndSelector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, rec := f.engine(f.answer(2*time.Second, "deploy-3"), 0)
		e.beforeScan = func() { time.Sleep(3 * initialCeiling) }
		defer e.Shutdown()

		p := e.Query(t.Context(), Query{Text: "deploy"})
		start := time.Now()
		checkInjection(t, "initial", p.Initial(t.Context()), nil, 0, 0)
		if waited := time.Since(start); waited != initialCeiling {
			t.Errorf("initial wait took %v, want the ceiling %v", waited, initialCeiling)
		}
		<-p.Settled()
		checkInjection(t, "tool result", p.ToolResult(), f.ids("deploy-3"), telemetry.PhaseRefined, telemetry.StrategyModel)
		checkDeliveries(t, rec, "delivery phase=refined point=tool_result strategy=model docs=1 latency=0s")
	})
}

// The selector settles before the host reaches its initial point: the
// refined result goes into the initial prompt (spec §5.2).
func TestSettleInsideTheBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, rec := f.engine(f.answer(40*time.Millisecond, "deploy-4", "tabs"), 0)
		defer e.Shutdown()

		p := e.Query(t.Context(), Query{Text: "deploy"})
		time.Sleep(50 * time.Millisecond) // the host builds its request
		checkInjection(t, "initial", p.Initial(t.Context()), f.ids("deploy-4", "tabs"), telemetry.PhaseRefined, telemetry.StrategyModel)
		checkInjection(t, "tool result", p.ToolResult(), nil, 0, 0)
		checkDeliveries(t, rec, "delivery phase=refined point=initial strategy=model docs=2 latency=0s")
	})
}

// Without a selector the plan settles with the deterministic result, so the
// initial prompt carries the lexical top five at once.
func TestDeterministicOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, rec := f.engine(nil, 0)
		defer e.Shutdown()

		p := e.Query(t.Context(), Query{Text: "deploy"})
		checkInjection(t, "initial", p.Initial(t.Context()),
			f.ids("deploy-1", "deploy-2", "deploy-3", "deploy-4", "deploy-5"), telemetry.PhaseRefined, telemetry.StrategyHeuristic)
		// The next query excludes the five surfaced documents.
		p2 := e.Query(t.Context(), Query{Text: "deploy"})
		checkInjection(t, "second initial", p2.Initial(t.Context()), f.ids("deploy-6"), telemetry.PhaseRefined, telemetry.StrategyHeuristic)
		// After a reset every document is eligible again.
		e.Reset()
		p3 := e.Query(t.Context(), Query{Text: "deploy"})
		if got := p3.Initial(t.Context()); len(got.Docs) != MaxPromptDocs {
			t.Errorf("after reset: %d docs, want %d", len(got.Docs), MaxPromptDocs)
		}
		checkDeliveries(t, rec,
			"delivery phase=refined point=initial strategy=heuristic docs=5 latency=0s",
			"delivery phase=refined point=initial strategy=heuristic docs=1 latency=0s",
			"delivery phase=refined point=initial strategy=heuristic docs=5 latency=0s",
		)
	})
}

// Cancelling the query inside the initial window delivers nothing, not even
// the fast result, and cancels the selector call.
func TestCancellationInsideInitialWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		called := make(chan struct{})
		sel := model.SelectorFunc(func(ctx context.Context, _ model.Request) ([]string, error) {
			close(called)
			<-ctx.Done()
			return nil, ctx.Err()
		})
		e, rec := f.engine(sel, 0)
		e.beforeScan = func() { time.Sleep(50 * time.Millisecond) }
		defer e.Shutdown()

		ctx, cancel := context.WithCancel(t.Context())
		p := e.Query(ctx, Query{Text: "deploy"})
		go func() {
			time.Sleep(10 * time.Millisecond)
			cancel()
		}()
		checkInjection(t, "initial", p.Initial(t.Context()), nil, 0, 0)
		<-p.Settled()
		select {
		case <-called:
			t.Errorf("the selector was called for a plan cancelled before it published")
		default:
		}
		checkInjection(t, "tool result", p.ToolResult(), nil, 0, 0)
		checkDeliveries(t, rec, "delivery phase=refined point=discarded reason=abort strategy=none docs=0 latency=0s")
	})
}

// Initial's own context ending first aborts the plan.
func TestInitialContextCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, rec := f.engine(f.answer(time.Second, "deploy-1"), 0)
		e.beforeScan = func() { time.Sleep(50 * time.Millisecond) }
		defer e.Shutdown()

		p := e.Query(t.Context(), Query{Text: "deploy"})
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
		defer cancel()
		checkInjection(t, "initial", p.Initial(ctx), nil, 0, 0)
		<-p.Settled()
		checkDeliveries(t, rec, "delivery phase=refined point=discarded reason=abort strategy=none docs=0 latency=0s")
	})
}

// A selector that ignores cancellation answers after a new query started:
// its answer is dropped and never reaches the new plan.
func TestLateSettleAfterNewQuery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		started := make(chan struct{})
		sel := model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
			if req.Query == "deploy" { // the first plan's call is slow and deaf
				close(started)
				time.Sleep(time.Second)
				return []string{f.key("grafana"), f.key("tabs")}, nil
			}
			return []string{f.key("deploy-5")}, nil
		})
		e, rec := f.engine(sel, 0)
		defer e.Shutdown()

		p1 := e.Query(t.Context(), Query{Text: "deploy"})
		checkInjection(t, "first initial", p1.Initial(t.Context()), f.ids("deploy-1", "deploy-2"), telemetry.PhaseFast, telemetry.StrategyHeuristic)
		<-started
		p2 := e.Query(t.Context(), Query{Text: "deploy again"})
		time.Sleep(10 * time.Millisecond) // the second selector answers at once
		checkInjection(t, "second initial", p2.Initial(t.Context()), f.ids("deploy-5"), telemetry.PhaseRefined, telemetry.StrategyModel)
		time.Sleep(2 * time.Second) // the first selector answers now
		<-p1.Settled()
		checkInjection(t, "first tool result", p1.ToolResult(), nil, 0, 0)
		checkInjection(t, "second tool result", p2.ToolResult(), nil, 0, 0)
		checkDeliveries(t, rec,
			"delivery phase=fast point=initial strategy=heuristic docs=2 latency=0s",
			"delivery phase=refined point=discarded reason=new_query strategy=none docs=0 latency=0s",
			"delivery phase=refined point=initial strategy=model docs=1 latency=0s",
		)
		if n := len(rec.Selections()); n != 1 {
			t.Errorf("%d selection events, want 1 (the replaced plan never settled)", n)
		}
	})
}

// The turn ends after the fast delivery with no tool result: the settled
// refined remainder has no prompt to go into.
func TestNoSafeDeliveryPoint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, rec := f.engine(f.answer(time.Second, "deploy-3"), 0)
		defer e.Shutdown()

		p := e.Query(t.Context(), Query{Text: "deploy"})
		p.Initial(t.Context())
		<-p.Settled()
		p.End()
		checkInjection(t, "tool result after end", p.ToolResult(), nil, 0, 0)
		checkDeliveries(t, rec,
			"delivery phase=fast point=initial strategy=heuristic docs=2 latency=0s",
			"delivery phase=refined point=discarded reason=no_safe_delivery_point strategy=model docs=0 latency=0s",
		)
	})
}

// Shutdown with a selector call in flight cancels it and returns only when
// every goroutine is gone; the bubble fails the test if one is left.
func TestShutdownWithCallInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		inCall := make(chan struct{})
		var returned atomic.Bool
		sel := model.SelectorFunc(func(ctx context.Context, _ model.Request) ([]string, error) {
			close(inCall)
			<-ctx.Done()
			time.Sleep(time.Second) // a call that takes a while to wind down
			returned.Store(true)
			return nil, ctx.Err()
		})
		e, rec := f.engine(sel, 0)
		p := e.Query(t.Context(), Query{Text: "deploy"})
		p.Initial(t.Context())
		<-inCall
		e.Shutdown()
		select {
		case <-p.Settled():
		default:
			t.Fatal("Shutdown returned with the plan's pipeline still running")
		}
		if !returned.Load() {
			t.Fatal("Shutdown returned with the selector call still running")
		}
		e.Shutdown() // idempotent
		checkInjection(t, "tool result after shutdown", p.ToolResult(), nil, 0, 0)
		if got := e.Query(t.Context(), Query{Text: "deploy"}).Initial(t.Context()); !got.Empty() {
			t.Errorf("a query after shutdown delivered %v", got.Docs)
		}
		checkDeliveries(t, rec,
			"delivery phase=fast point=initial strategy=heuristic docs=2 latency=0s",
			"delivery phase=refined point=discarded reason=shutdown strategy=none docs=0 latency=0s",
		)
	})
}

// A failing selector, one that hits the 30 s ceiling and one that answers
// outside the manifest all fall back to the lexical top five (heuristic),
// minus what the fast delivery already injected.
func TestSelectorFailuresFallBackToHeuristic(t *testing.T) {
	tests := []struct {
		name string
		sel  func(f *fixture) model.Selector
		kind model.ErrorKind
	}{
		{"error", func(*fixture) model.Selector {
			return model.Delayed{Inner: model.Scripted{Err: errors.New("boom")}, Delay: time.Second}
		}, model.ErrorOther},
		{"timeout", func(f *fixture) model.Selector { return f.answer(model.SelectorTimeout+time.Second, "tabs") }, model.ErrorTimeout},
		{"unknown document", func(*fixture) model.Selector {
			return model.Delayed{Inner: model.Scripted{Answer: []string{"project/nope.md"}}, Delay: time.Second}
		}, model.ErrorUnknownDocument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t)
				e, rec := f.engine(tt.sel(f), 0)
				defer e.Shutdown()
				p := e.Query(t.Context(), Query{Text: "deploy"})
				checkInjection(t, "initial", p.Initial(t.Context()), f.ids("deploy-1", "deploy-2"), telemetry.PhaseFast, telemetry.StrategyHeuristic)
				<-p.Settled()
				checkInjection(t, "tool result", p.ToolResult(), f.ids("deploy-3", "deploy-4", "deploy-5"), telemetry.PhaseRefined, telemetry.StrategyHeuristic)
				if tr := p.Trace(); tr.ErrKind != tt.kind || tr.Strategy != telemetry.StrategyHeuristic {
					t.Errorf("trace: err kind %s strategy %s, want %s heuristic", tr.ErrKind, tr.Strategy, tt.kind)
				}
				sel := rec.Selections()
				if len(sel) != 1 || sel[0].Strategy != telemetry.StrategyHeuristic || sel[0].Selected != 5 {
					t.Errorf("selection telemetry %v", sel)
				}
			})
		})
	}
}

// An empty answer selects nothing: the plan ends no_relevant_results.
func TestEmptyAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, rec := f.engine(f.answer(time.Second), 0)
		defer e.Shutdown()
		p := e.Query(t.Context(), Query{Text: "deploy"})
		p.Initial(t.Context())
		<-p.Settled()
		checkInjection(t, "tool result", p.ToolResult(), nil, 0, 0)
		checkDeliveries(t, rec,
			"delivery phase=fast point=initial strategy=heuristic docs=2 latency=0s",
			"delivery phase=refined point=discarded reason=no_relevant_results strategy=none docs=0 latency=0s",
		)
	})
}

// A query that matches nothing ends its wait on the (empty) deterministic
// result and delivers nothing; a lexically silent document the selector
// picks from the recent reserve still arrives at the tool result.
func TestNoLexicalMatchUsesReserve(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, _ := f.engine(f.answer(time.Second, "tabs"), 0)
		defer e.Shutdown()
		p := e.Query(t.Context(), Query{Text: "formatting conventions"})
		start := time.Now()
		checkInjection(t, "initial", p.Initial(t.Context()), nil, 0, 0)
		if time.Since(start) >= initialCeiling {
			t.Errorf("the wait did not end on the empty deterministic result")
		}
		<-p.Settled()
		checkInjection(t, "tool result", p.ToolResult(), f.ids("tabs"), telemetry.PhaseRefined, telemetry.StrategyModel)
	})
}

// The injected text carries titles, paths and ages from the injected clock.
func TestInjectedTextContent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, _ := f.engine(nil, 0)
		defer e.Shutdown()
		inj := e.Query(t.Context(), Query{Text: "deploy"}).Initial(t.Context())
		for _, want := range []string{"## 1. Deploy note 1\nproject memory: deploy-1.md (saved yesterday)\n", "## 5. Deploy note 5\nproject memory: deploy-5.md (saved 5 days ago)\n"} {
			if !strings.Contains(inj.Text, want) {
				t.Errorf("text lacks %q:\n%s", want, inj.Text)
			}
		}
	})
}

// Anything that ends a plan cancels its selector call: a new query, an
// abort, the end of the turn, a reset.
func TestPlanEndCancelsSelectorCall(t *testing.T) {
	enders := map[string]func(e *Engine, p *Plan){
		"new query": func(e *Engine, _ *Plan) { e.Query(context.Background(), Query{Text: "something else"}) },
		"abort":     func(_ *Engine, p *Plan) { p.Abort() },
		"end":       func(_ *Engine, p *Plan) { p.End() },
		"reset":     func(e *Engine, _ *Plan) { e.Reset() },
	}
	for name, end := range enders {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t)
				inCall, cancelled := make(chan struct{}), make(chan struct{})
				sel := model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
					if req.Query != "deploy" {
						return nil, nil
					}
					close(inCall)
					<-ctx.Done()
					close(cancelled)
					return nil, ctx.Err()
				})
				e, _ := f.engine(sel, 0)
				defer e.Shutdown()
				p := e.Query(t.Context(), Query{Text: "deploy"})
				p.Initial(t.Context())
				<-inCall
				end(e, p)
				<-cancelled // a call left running would block here: the bubble reports the deadlock
				<-p.Settled()
			})
		})
	}
}
