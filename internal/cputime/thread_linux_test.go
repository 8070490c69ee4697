//go:build linux

package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadCounts: the calling thread's CPU time grows while it works,
// and is a part of the process's.
func TestThreadCounts(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, t0 := Now(), Thread()
	if t0 <= 0 {
		t.Fatalf("Thread() = %v at the start of a test: no CPU time read", t0)
	}
	sink := 0
	// Work until the thread's time moves,
	// for at most two seconds of wall-clock time.
	for end := time.Now().Add(2 * time.Second); Thread() == t0 && time.Now().Before(end); {
		for i := range 100_000 {
			sink += i & 3
		}
	}
	t1, p1 := Thread(), Now()
	if t1 <= t0 {
		t.Fatalf("Thread() did not grow: %v, then %v (sink %d)", t0, t1, sink)
	}
	if t1-t0 > p1-p0+time.Millisecond {
		t.Errorf("the thread's CPU time grew by %v, the process's by only %v", t1-t0, p1-p0)
	}
}
