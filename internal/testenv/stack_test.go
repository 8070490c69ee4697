package testenv

import (
	"sync"
	"testing"
	"time"
)

//go:noinline
func lockHeld(mu *sync.Mutex) {
	mu.Lock()
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
	mu.Lock()
	done := make(chan struct{})
	go func() { lockHeld(&mu); close(done) }()
	for i := 0; !MutexWaiter(frame); i++ {
		if i == 10000 {
			mu.Unlock()
			t.Fatal("no waiter seen in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	mu.Unlock()
	<-done
	if MutexWaiter(frame) {
		t.Error("a waiter after the lock was released")
	}
}
