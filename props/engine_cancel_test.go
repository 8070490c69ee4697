package props

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
	"github.com/memrecall/memrecall/telemetry"
)

// TestCancelStopsDelivery is the property of issue 13, item 6, over the
// real engine in real time (no synctest: the engine's own goroutines, the
// selector and the host race for real): a host cancels the context it gave
// Query at a drawn moment — before Query, between any two points, or from
// another goroutine while the points run — and no delivery point that
// starts after cancel() has returned injects anything. When cancel()
// returned while the plan was still open and a point followed, the plan's
// terminal telemetry is the abort. Checks: engineChecks() (RAPID_CHECKS/10,
// at least 100).
func TestCancelStopsDelivery(t *testing.T) {
	root := t.TempDir()
	dirs := [2]string{filepath.Join(root, "project"), filepath.Join(root, "user")}
	for i := range 8 {
		dir := dirs[i%2]
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf("---\ntype: project\nname: quorvex note %d\ndescription: blentic quorvex %d\n---\nquorvex body %d\n", i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	withChecks(t, engineChecks(), func() {
		rapid.Check(t, func(rt *rapid.T) {
			checkCancelStopsDelivery(rt, dirs)
		})
	})
}

func checkCancelStopsDelivery(t *rapid.T, dirs [2]string) {
	delay := time.Duration(rapid.IntRange(0, 3000).Draw(t, "selector_delay_us")) * time.Microsecond
	withSelector := rapid.Bool().Draw(t, "with_selector")
	var sel model.Selector
	if withSelector {
		sel = model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
			select {
			case <-time.After(delay):
				keys := req.Manifest.Keys()
				return keys[:min(len(keys), 3)], nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	}
	rec := &telemetry.Recorder{}
	e := recall.New(recall.Options{ProjectDir: dirs[0], UserDir: dirs[1], Selector: sel, Sink: rec})
	defer e.Shutdown()

	// The host's turn: Initial, some tool results, End. cancelAt is the
	// index of the step cancel() runs before (0: before Query); async runs
	// it on another goroutine instead, racing the steps from there on.
	tools := rapid.IntRange(0, 4).Draw(t, "tool_results")
	steps := 2 + tools // initial, tools…, end
	cancelAt := rapid.IntRange(0, steps).Draw(t, "cancel_before_step")
	async := rapid.Bool().Draw(t, "cancel_async")
	pause := time.Duration(rapid.IntRange(0, 2000).Draw(t, "pause_us")) * time.Microsecond

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled atomic.Bool // set once cancel() has returned
	doCancel := func() {
		cancel()
		cancelled.Store(true)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	fire := func() {
		if async {
			wg.Go(func() {
				time.Sleep(time.Duration(rand.IntN(int(pause) + 1)))
				doCancel()
			})
			return
		}
		doCancel()
	}
	if cancelAt == 0 {
		fire()
	}
	p := e.Query(ctx, recall.Query{Text: "quorvex blentic"})
	for step := range steps {
		// The host's work between two points; a synchronous cancel comes
		// right before the point, as in a host that cancels and then
		// builds its next request at once.
		time.Sleep(pause / 4)
		if step+1 == cancelAt {
			fire()
		}
		after := cancelled.Load()
		var inj recall.Injection
		var name string
		switch {
		case step == 0:
			name, inj = "Initial", p.Initial(context.Background())
		case step == steps-1:
			name = "End"
			p.End()
		default:
			name, inj = "ToolResult", p.ToolResult()
		}
		if after && !inj.Empty() {
			t.Fatalf("%s after cancel() returned injected %d documents", name, len(inj.Docs))
		}
	}
	wg.Wait()
	e.Shutdown()
	// Telemetry: documents counted equal documents handed out is checked
	// by the lifecycle suite; here, every plan ended exactly once, and no
	// delivery of documents was recorded after an abort.
	ds := rec.Deliveries()
	terminal := 0
	for i, d := range ds {
		if d.Point == telemetry.PointDiscarded || d.Phase == telemetry.PhaseRefined {
			terminal++
		}
		if d.Reason == telemetry.ReasonAbort {
			for _, later := range ds[i+1:] {
				if later.Docs > 0 {
					t.Fatalf("a delivery of %d documents recorded after the abort: %s", later.Docs, fmtDeliveries(ds))
				}
			}
		}
	}
	if terminal != 1 {
		t.Fatalf("%d terminal events, want 1: %s", terminal, fmtDeliveries(ds))
	}
}

func fmtDeliveries(ds []telemetry.Delivery) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("\n  ")
		b.WriteString(d.String())
	}
	return b.String()
}
