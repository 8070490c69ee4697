package props

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing/synctest"
	"time"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
	"github.com/memrecall/memrecall/telemetry"
)

// engineScript is how one query's selector behaves.
type engineScript struct {
	delay time.Duration
	keys  []string
	fail  bool
}

// enginePlan is one query: the host's handle, what the model expects of
// it, and what was observed.
type enginePlan struct {
	n       int
	plan    *recall.Plan
	text    string
	script  engineScript
	cancel  context.CancelFunc
	queryAt time.Time

	// The model. certain is false once an interleaving made the plan's
	// state ambiguous; then only the invariants judge it.
	certain       bool
	surfacedStart map[memory.ID]bool
	ranking       []memory.ID // lexical ranking of the plan's pool
	poolEmpty     bool
	selection     []memory.ID
	strategy      telemetry.Strategy
	settleAt      time.Time
	live          bool
	initialPassed bool

	// Observed.
	given     map[memory.ID]bool // matches of the query ∪ documents its selector named
	hostEnded bool               // End, Abort, cancel, a newer Query, Reset or Shutdown returned
	fast      int
	refined   int
}

type engineHarness struct {
	tr    *engineTree
	eng   *recall.Engine
	rec   *telemetry.Recorder
	logs  *lockedBuffer
	start time.Time

	mu      sync.Mutex // guards scripts: the selector reads it on engine goroutines
	scripts map[string]engineScript

	detOnly        bool
	closed         bool
	plans          []*enginePlan
	injected       map[memory.ID]bool // since the last reset
	injectedCount  int
	seenEvents     int
	queryMarkers   []string
	log            []string
	invariantsOnly bool
	stats          map[string]int // across runs: outcomes reached, model comparisons made
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newEngineHarness starts a session on a fresh engine. It must run inside
// a synctest bubble (TestEngineLifecycle's): its liveness checks read the
// bubble's fake clock (see engineCeiling).
func newEngineHarness(t *rapid.T, tr *engineTree) *engineHarness {
	h := &engineHarness{
		tr: tr, rec: &telemetry.Recorder{}, logs: &lockedBuffer{}, start: time.Now(),
		scripts: map[string]engineScript{}, injected: map[memory.ID]bool{},
		detOnly:        rapid.IntRange(0, 4).Draw(t, "deterministic_only_roll") == 0,
		invariantsOnly: os.Getenv(engineInvariantsOnlyEnv) == "1",
	}
	sink := teeSink{h.rec, telemetry.Slog(slog.New(slog.NewJSONHandler(h.logs, nil)))}
	opts := recall.Options{
		ProjectDir: tr.project, UserDir: tr.user, Sink: sink,
		Clock: func() time.Time { return time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC) },
	}
	if !h.detOnly {
		opts.Selector = model.SelectorFunc(h.selectFor)
	}
	eng, err := newSuiteEngine(opts)
	if err != nil {
		t.Fatal(err)
	}
	h.eng = eng
	synctest.Wait() // the warm-up has run
	return h
}

// teeSink sends every event to two sinks.
type teeSink [2]telemetry.Sink

func (s teeSink) Selection(e telemetry.Selection) { s[0].Selection(e); s[1].Selection(e) }
func (s teeSink) Delivery(e telemetry.Delivery)   { s[0].Delivery(e); s[1].Delivery(e) }

// selectFor is the scripted selector: the answer drawn for the query,
// after its delay (model.Delayed: a fake-clock timer that honours ctx).
func (h *engineHarness) selectFor(ctx context.Context, req model.Request) ([]string, error) {
	h.mu.Lock()
	s := h.scripts[req.Query]
	h.mu.Unlock()
	inner := model.Scripted{Answer: s.keys}
	if s.fail {
		inner.Err = fmt.Errorf("scripted failure")
	}
	return model.Delayed{Inner: inner, Delay: s.delay}.Select(ctx, req)
}

func (h *engineHarness) now() time.Duration { return time.Since(h.start) }

func (h *engineHarness) logf(format string, args ...any) {
	h.log = append(h.log, fmt.Sprintf("%8v  ", h.now())+fmt.Sprintf(format, args...))
}

// fail stops the run with the host-call log that led to it.
func (h *engineHarness) fail(t *rapid.T, format string, args ...any) {
	t.Helper()
	t.Fatalf("%s\n\nhost calls (deterministic_only=%v):\n%s", fmt.Sprintf(format, args...), h.detOnly, strings.Join(h.log, "\n"))
}

func (h *engineHarness) modelFail(t *rapid.T, format string, args ...any) {
	t.Helper()
	if !h.invariantsOnly {
		h.fail(t, format, args...)
	}
}

func (h *engineHarness) current() *enginePlan {
	if len(h.plans) == 0 {
		return nil
	}
	return h.plans[len(h.plans)-1]
}

func planNumbers(ps []*enginePlan) []int {
	var out []int
	for _, p := range ps {
		if p != nil {
			out = append(out, p.n)
		} else {
			out = append(out, 0)
		}
	}
	return out
}

func (h *engineHarness) show(inj recall.Injection) string {
	if inj.Empty() {
		return "nothing"
	}
	var names []string
	for _, id := range inj.Docs {
		names = append(names, h.name(id))
	}
	return fmt.Sprintf("%s/%s %v", inj.Phase, inj.Strategy, names)
}

func (h *engineHarness) name(id memory.ID) string {
	for i, d := range h.tr.docs {
		if d.ID == id {
			return h.tr.keys[i]
		}
	}
	return string(id)
}

// close shuts the engine down and checks the session's totals.
func (h *engineHarness) close(t *rapid.T) {
	if !h.closed {
		h.eng.Shutdown()
		h.closed = true
	}
	synctest.Wait()
	for _, p := range h.plans {
		p.cancel()
	}
	if t.Failed() {
		return // an action failed: its report is the one that matters
	}
	h.checkTelemetry(t, 0, "final shutdown")
	h.checkInvariants(t)
	terminal, counted, selections := 0, 0, 0
	for _, e := range h.rec.Events() {
		switch e.Kind {
		case telemetry.KindDelivery:
			counted += e.Delivery.Docs
			if e.Delivery.Phase == telemetry.PhaseRefined {
				terminal++
			}
		case telemetry.KindSelection:
			selections++
		}
	}
	if terminal != len(h.plans) {
		h.fail(t, "%d terminal delivery events for %d plans", terminal, len(h.plans))
	}
	if counted != h.injectedCount {
		h.fail(t, "delivery telemetry counts %d documents, %d were injected", counted, h.injectedCount)
	}
	if selections > len(h.plans) {
		h.fail(t, "%d selection events for %d plans", selections, len(h.plans))
	}
}
