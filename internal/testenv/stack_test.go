package testenv

import (
	"sync"
	"testing"
	"time"
)

// lockHeld waits for mu, which the test holds, and counts its turn.
//
//go:noinline
func lockHeld(mu *sync.Mutex, turns *int) {
	mu.Lock()
	*turns++
	mu.Unlock()
}

// MutexWaiter sees a goroutine blocked in Lock under the named function,
// and no longer once the lock is free.
func TestMutexWaiter(t *testing.T) {
	const frame = "testenv.lockHeld("
	if MutexWaiter(frame) {
		t.Fatal("a waiter before any goroutine waits")
	}
	var mu sync.Mutex
	turns := 0
	mu.Lock()
	done := make(chan struct{})
	go func() { lockHeld(&mu, &turns); close(done) }()
	for i := 0; !MutexWaiter(frame); i++ {
		if i == 10000 {
			mu.Unlock()
			t.Fatal("no waiter seen in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	mu.Unlock()
	<-done
	if turns != 1 {
		t.Fatalf("lockHeld took %d turns, want 1", turns)
	}
	if MutexWaiter(frame) {
		t.Error("a waiter after the lock was released")
	}
}
