package model

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/telemetry"
)

// pipeListener is an in-memory listener built on net.Pipe. A connection
// blocked on it is durably blocked in a synctest bubble, so an httptest
// server on it lets Settle's 30 s ceiling run on the fake clock.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "selector.test" }

// pipeServer starts handler on an in-memory httptest server and returns an
// OpenAI selector wired to it. Call it inside a synctest bubble; the
// returned stop function must run before the bubble ends.
func pipeServer(handler http.HandlerFunc) (Selector, func()) {
	l := newPipeListener()
	srv := httptest.NewUnstartedServer(handler)
	srv.Listener = l
	srv.Start()
	tr := &http.Transport{DialContext: l.dial}
	sel := mustOpenAI(OpenAIConfig{
		BaseURL:    srv.URL + "/v1",
		Model:      "test-model",
		APIKey:     testAPIKey,
		HTTPClient: &http.Client{Transport: tr},
	})
	return sel, func() {
		tr.CloseIdleConnections()
		srv.Close()
	}
}

// TestOpenAISlowAndHanging drives the real adapter against servers that
// answer late or never, through Settle's ceiling, on synctest's fake clock.
func TestOpenAISlowAndHanging(t *testing.T) {
	m, ids := fixture()
	answer := completion(`{"selected_memories":["project/e.md"]}`)
	timeout := Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorTimeout, Err: context.DeadlineExceeded}
	tests := []struct {
		name         string
		delay        time.Duration // before the headers
		partial      bool          // send half a body, then hang
		hang         bool          // never finish
		want         Outcome
		wantDuration time.Duration
	}{
		{"typical round trip", time.Second, false, false, Outcome{Strategy: telemetry.StrategyModel, Docs: []memory.ID{ids[4]}}, time.Second},
		{"slow but inside the ceiling", 29 * time.Second, false, false, Outcome{Strategy: telemetry.StrategyModel, Docs: []memory.ID{ids[4]}}, 29 * time.Second},
		{"slower than the ceiling", 45 * time.Second, false, false, timeout, SelectorTimeout},
		{"hangs before the headers", 0, false, true, timeout, SelectorTimeout},
		{"hangs mid-body", 0, true, true, timeout, SelectorTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sel, stop := pipeServer(func(w http.ResponseWriter, r *http.Request) {
					io.Copy(io.Discard, r.Body)
					timer := time.NewTimer(tt.delay)
					defer timer.Stop()
					select {
					case <-timer.C:
					case <-r.Context().Done():
						return
					}
					if tt.partial {
						io.WriteString(w, answer[:20])
						w.(http.Flusher).Flush()
					}
					if tt.hang {
						<-r.Context().Done()
						return
					}
					io.WriteString(w, answer)
				})
				defer stop()
				got := Settle(t.Context(), sel, Request{Query: "q", Manifest: m})
				checkOutcome(t, got, tt.want)
				if got.Duration != tt.wantDuration {
					t.Errorf("Duration = %v, want %v (fake clock)", got.Duration, tt.wantDuration)
				}
			})
		})
	}
}
