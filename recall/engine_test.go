package recall

import (
	"context"
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
//
// The plain lifecycle sequences (fast then refined, a settle inside the
// budget, a budget expiry on a slow scan, the deterministic-only engine
// and its reset, a late settle after a new query, a turn end with no
// delivery point, selector failures, an empty answer, a query with no
// lexical match) are scripts in testdata/scripts, run by script_test.go.
// What stays here needs hooks a script does not have: a cancellation
// during the initial wait, a selector that observes its cancellation, the
// injected text itself.

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

// Shutdown with a selector call in flight cancels it and returns only when
// every goroutine is gone; the bubble fails the test if one is left. So
// does ShutdownFrom given a context that is not this engine's call's: one
// carrying another call's token (another engine's, say) leaves out
// nothing.
func TestShutdownWithCallInFlight(t *testing.T) {
	foreign := context.WithValue(context.Background(), callKey{}, &selectorCall{done: make(chan struct{})})
	for name, shutdown := range map[string]func(*Engine){
		"Shutdown":                   (*Engine).Shutdown,
		"ShutdownFrom(foreign call)": func(e *Engine) { e.ShutdownFrom(foreign) },
	} {
		t.Run(name, func(t *testing.T) { shutdownWithCallInFlight(t, shutdown) })
	}
}

func shutdownWithCallInFlight(t *testing.T, shutdown func(*Engine)) {
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
		shutdown(e)
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
