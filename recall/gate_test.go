package recall

import (
	"context"
	"testing"
	"testing/synctest"
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
