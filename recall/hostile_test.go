package recall

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/telemetry"
)

// Regression tests for the engine faults of issue 13.

// cancelThenPoint is the host sequence the hostile suite used: cancel the
// Query context, then reach a delivery point. Nothing may be injected at
// the point, and telemetry must record an abort.
//
// The selector answers only once release is closed, after the initial
// point has passed: were it free to settle first, Initial could deliver
// the refined result and close the plan, and the tool-result point would
// have nothing left to abort. On a loaded machine Initial may also pass
// empty at its ceiling; the plan then stays open for the tool result, so
// the check below holds either way.
func cancelThenPoint(t *testing.T, f *fixture, inner model.Selector, point string) {
	release := make(chan struct{})
	sel := model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return inner.Select(ctx, req)
	})
	e, rec := f.engine(sel, 0)
	defer e.Shutdown()
	ctx, cancel := context.WithCancel(context.Background())
	p := e.Query(ctx, Query{Text: "deploy"})
	if point == "tool_result" {
		p.Initial(context.Background())
		close(release)
		<-p.Settled()
	} else {
		close(release)
		<-p.published
	}
	cancel()
	var inj Injection
	switch point {
	case "initial":
		inj = p.Initial(context.Background())
	case "tool_result":
		inj = p.ToolResult()
	case "end":
		p.End()
	}
	if !inj.Empty() {
		t.Fatalf("%s after cancel() delivered %v", point, inj.Docs)
	}
	ds := rec.Deliveries()
	if len(ds) == 0 || ds[len(ds)-1].Reason != telemetry.ReasonAbort {
		t.Fatalf("%s after cancel(): telemetry %v, want the plan discarded with abort", point, deliveries(rec))
	}
}

// TestCancelStopsNextPoint runs cancelThenPoint under synctest (fake time:
// the selector's second is instant) and in real time (the abort's
// AfterFunc goroutine really runs concurrently with the point).
func TestCancelStopsNextPoint(t *testing.T) {
	for _, point := range []string{"initial", "tool_result", "end"} {
		t.Run("synctest/"+point, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t)
				cancelThenPoint(t, f, f.answer(time.Second, "grafana", "tabs"), point)
			})
		})
		t.Run("realtime/"+point, func(t *testing.T) {
			f := newFixture(t)
			for range 50 {
				cancelThenPoint(t, f, f.answer(time.Millisecond, "grafana", "tabs"), point)
			}
		})
	}
}

// TestCancelledBeforeQueryGetsNothing: a context already cancelled when
// Query is called never gets memory at Initial, however fast the plan
// publishes.
func TestCancelledBeforeQueryGetsNothing(t *testing.T) {
	f := newFixture(t)
	e, rec := f.engine(nil, 0)
	defer e.Shutdown()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 200 {
		p := e.Query(ctx, Query{Text: "deploy"})
		<-p.published
		if inj := p.Initial(context.Background()); !inj.Empty() {
			t.Fatalf("query %d: a cancelled context got %v at Initial", i, inj.Docs)
		}
	}
	for _, d := range rec.Deliveries() {
		if d.Docs != 0 {
			t.Fatalf("a delivery of %d documents was recorded: %v", d.Docs, d)
		}
	}
}

// TestShutdownInsideSelect: a selector that shuts the engine down from
// inside Select (say, on a fatal provider error), passing ShutdownFrom the
// context Select got, must not deadlock, whether it calls it on Select's
// own goroutine or hands it to another and waits; and the host's own
// later Shutdown must return too (decisions 0607, 0904).
func TestShutdownInsideSelect(t *testing.T) {
	for _, tt := range []struct {
		name string
		stop func(e *Engine, ctx context.Context)
	}{
		{"same goroutine", func(e *Engine, ctx context.Context) { e.ShutdownFrom(ctx) }},
		{"derived context", func(e *Engine, ctx context.Context) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			e.ShutdownFrom(ctx)
		}},
		{"another goroutine", func(e *Engine, ctx context.Context) {
			done := make(chan struct{})
			go func() { e.ShutdownFrom(ctx); close(done) }()
			<-done
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t)
				var e *Engine
				returned := make(chan struct{})
				sel := model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
					tt.stop(e, ctx)
					close(returned)
					return nil, ctx.Err()
				})
				e, _ = f.engine(sel, 0)
				p := e.Query(context.Background(), Query{Text: "deploy"})
				p.Initial(context.Background())
				synctest.Wait()
				select {
				case <-returned:
				default:
					t.Fatal("ShutdownFrom called inside Select did not return")
				}
				done := make(chan struct{})
				go func() { e.Shutdown(); close(done) }()
				synctest.Wait()
				select {
				case <-done:
				default:
					t.Fatal("the host's Shutdown after the selector's did not return")
				}
			})
		})
	}
}

// TestSelectorErrorInTelemetry: a host that wires the OpenAI adapter with
// a wrong key sees why every selection is heuristic: the Selection event
// carries the error kind (never its text).
func TestSelectorErrorInTelemetry(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided"}}`)
	}))
	defer srv.Close()
	sel, err := model.OpenAI(model.OpenAIConfig{BaseURL: srv.URL, Model: "m", APIKey: "sk-wrong", HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	e, rec := f.engine(sel, 0)
	p := e.Query(context.Background(), Query{Text: "deploy"})
	p.Initial(context.Background())
	<-p.Settled()
	e.Shutdown()
	sels := rec.Selections()
	if len(sels) != 1 {
		t.Fatalf("%d selection events, want 1", len(sels))
	}
	if s := sels[0]; s.Strategy != telemetry.StrategyHeuristic || s.Error != telemetry.ErrorHTTPStatus {
		t.Errorf("selection %v, want strategy=heuristic error=http_status", s)
	}
	if strings.Contains(sels[0].String(), "Incorrect") {
		t.Errorf("selection telemetry carries provider text: %v", sels[0])
	}
}
