package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/telemetry"
)

// TestConcurrentHosts drives one engine from several goroutines at once —
// queries, initial points, tool results, turn ends, aborts and resets in
// random order with a selector of random latency — and checks the
// accounting that must hold whatever the interleaving: every plan ends with
// exactly one terminal telemetry event, and the delivery events count
// exactly the documents handed to callers. Run it with -race: it is the
// engine's data-race test. Time is synctest's, so it never sleeps.
func TestConcurrentHosts(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				runConcurrentHosts(t, seed)
			})
		})
	}
}

func runConcurrentHosts(t *testing.T, seed uint64) {
	f := newFixture(t)
	var delays sync.Mutex
	rng := rand.New(rand.NewPCG(seed, 1))
	sel := model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
		delays.Lock()
		d := time.Duration(rng.IntN(300)) * time.Millisecond
		keys := req.Manifest.Keys()
		n := rng.IntN(min(len(keys), 5) + 1)
		delays.Unlock()
		return model.Delayed{Inner: model.Scripted{Answer: keys[:n]}, Delay: d}.Select(ctx, req)
	})
	e, rec := f.engine(sel, 0)

	var plans, injected atomic.Int64
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(seed, uint64(g)+2))
			var p *Plan
			for range 40 {
				time.Sleep(time.Duration(r.IntN(50)) * time.Millisecond)
				switch op := r.IntN(10); {
				case op < 3 || p == nil:
					ctx, cancel := context.WithCancel(t.Context())
					p = e.Query(ctx, Query{Text: "deploy release"})
					if r.IntN(4) == 0 {
						cancel() // the caller goes away
					} else {
						defer cancel()
					}
					plans.Add(1)
				case op < 5:
					injected.Add(int64(len(p.Initial(t.Context()).Docs)))
				case op < 8:
					injected.Add(int64(len(p.ToolResult().Docs)))
				case op == 8:
					p.End()
				default:
					if r.IntN(3) == 0 {
						e.Reset()
					} else {
						p.Abort()
					}
				}
			}
		})
	}
	wg.Wait()
	e.Shutdown()

	var terminal, counted int64
	for _, d := range rec.Deliveries() {
		counted += int64(d.Docs)
		if d.Phase == telemetry.PhaseRefined {
			terminal++
		}
	}
	if terminal != plans.Load() {
		t.Errorf("%d terminal events for %d plans", terminal, plans.Load())
	}
	if counted != injected.Load() {
		t.Errorf("telemetry counts %d documents, callers received %d", counted, injected.Load())
	}
}
