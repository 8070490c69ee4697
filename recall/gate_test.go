package recall

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRankGate: the warm-up's wait returns at once while no plan ranks,
// blocks while one does, and ends when the last one leaves or when the
// engine's context ends.
func TestRankGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g rankGate
		g.wait(context.Background()) // idle: returns at once

		g.enter()
		g.enter()
		done := make(chan struct{})
		go func() {
			g.wait(context.Background())
			close(done)
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("wait returned while two plans were ranking")
		default:
		}
		g.leave()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("wait returned while one plan was still ranking")
		default:
		}
		g.leave()
		synctest.Wait()
		select {
		case <-done:
		default:
			t.Fatal("wait still blocked after the last plan left")
		}

		g.enter()
		ctx, cancel := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		go func() {
			g.wait(ctx)
			close(stopped)
		}()
		synctest.Wait()
		cancel()
		synctest.Wait()
		select {
		case <-stopped:
		default:
			t.Fatal("wait did not end with its context")
		}
		g.leave()
	})
}

// TestRankGateWaitAtMost: the snapshot writer's bounded wait returns at
// once on a free gate or with no time left, when the last plan leaves,
// or when its time is up, and reports how long it waited (synctest's
// clock, so exactly).
func TestRankGateWaitAtMost(t *testing.T) {
	for _, tc := range []struct {
		name   string
		plans  int           // plans in the gate when the wait starts
		leave  time.Duration // when they all leave; 0: never
		budget time.Duration
		want   time.Duration
	}{
		{"free gate", 0, 0, time.Second, 0},
		{"no time left", 1, 0, 0, 0},
		{"time left below zero", 1, 0, -time.Second, 0},
		{"plans leave in time", 2, 300 * time.Millisecond, time.Second, 300 * time.Millisecond},
		{"plans never leave", 2, 0, time.Second, time.Second},
		{"plans leave too late", 1, 2 * time.Second, time.Second, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var g rankGate
				for range tc.plans {
					g.enter()
				}
				left := make(chan struct{})
				go func() {
					defer close(left)
					if tc.leave > 0 {
						time.Sleep(tc.leave)
					} else {
						<-t.Context().Done()
					}
					for range tc.plans {
						g.leave()
					}
				}()
				start := time.Now()
				got := g.waitAtMost(tc.budget)
				if took := time.Since(start); got != took || got != tc.want {
					t.Errorf("waitAtMost(%v) reported %v and took %v, want %v", tc.budget, got, took, tc.want)
				}
				if tc.leave == 0 {
					return // the plans leave when the test ends
				}
				<-left
			})
		})
	}
}

// TestPlanHoldsGateUntilPublished: a plan leaves the rank gate only after
// it has published its deterministic result (decision 0612), so the
// warm-up's indexing does not compete with the hand-off; a plan that left
// at the end of its ranking, before publishing, fails here.
func TestPlanHoldsGateUntilPublished(t *testing.T) {
	f := newFixture(t)
	e, _ := f.engine(nil, 0)
	defer e.Shutdown()
	<-e.Warmed() // the warm-up never enters the gate; let it finish anyway
	var held []int
	e.beforePublish = func() {
		e.gate.mu.Lock()
		held = append(held, e.gate.busy)
		e.gate.mu.Unlock()
	}
	p := e.Query(t.Context(), Query{Text: "deploy"})
	<-p.Published()
	if diff := cmp.Diff([]int{1}, held); diff != "" {
		t.Errorf("plans holding the gate just before Published closed (-want +got):\n%s", diff)
	}
	e.Shutdown() // waits for the plan's goroutine, which leaves after publishing
	e.gate.mu.Lock()
	busy := e.gate.busy
	e.gate.mu.Unlock()
	if busy != 0 {
		t.Errorf("%d plans hold the gate after the plan ended, want 0", busy)
	}
}
