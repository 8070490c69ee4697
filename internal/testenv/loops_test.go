package testenv

import (
	"sync/atomic"
	"testing"
)

// TestLoops: each loop runs its turns in order from 0, and once Stop has
// returned no turn runs any more.
func TestLoops(t *testing.T) {
	l := NewLoops()
	var turns [2]atomic.Int64
	started := make(chan struct{}, 2)
	for k := range turns {
		l.Go(func(i int) {
			if got := turns[k].Add(1) - 1; got != int64(i) {
				t.Errorf("loop %d: turn %d told %d", k, got, i)
			}
			if i == 3 {
				started <- struct{}{}
			}
		})
	}
	<-started
	<-started
	l.Stop()
	after := [2]int64{turns[0].Load(), turns[1].Load()}
	for k := range turns {
		if after[k] < 4 {
			t.Errorf("loop %d ran %d turns before Stop, want at least 4", k, after[k])
		}
	}
	// Stop waited for every goroutine: nothing can add a turn now. A
	// Stop that returned before its loops ended fails here under -race
	// or by a changed count.
	for k := range turns {
		if got := turns[k].Load(); got != after[k] {
			t.Errorf("loop %d ran on after Stop: %d turns, then %d", k, after[k], got)
		}
	}
}

// TestLoopsStopWaitsForTheTurn: a turn under way when Stop is called is
// finished before Stop returns. The turn is held until Stop has begun
// (it waits for the stop channel's close), so a Stop that only closed the
// channel would return while the turn still runs.
func TestLoopsStopWaitsForTheTurn(t *testing.T) {
	l := NewLoops()
	inTurn := make(chan struct{})
	var finished atomic.Bool
	l.Go(func(i int) {
		if i > 0 {
			return
		}
		close(inTurn)
		<-l.stop
		finished.Store(true)
	})
	<-inTurn
	l.Stop()
	if !finished.Load() {
		t.Fatal("Stop returned while a turn was under way")
	}
}
