package testenv

import (
	"strings"
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

// parked blocks on ch under a frame of its own.
//
//go:noinline
func parked(ch chan struct{}) { <-ch }

// GoroutineWith sees a goroutine only while its stack holds every frame
// asked for, and the dump Goroutines returns holds each goroutine once.
func TestGoroutineWith(t *testing.T) {
	const frame = "testenv.parked("
	ch := make(chan struct{})
	done := make(chan struct{})
	go func() { parked(ch); close(done) }()
	for i := 0; !GoroutineWith(frame); i++ {
		if i == 10000 {
			close(ch)
			t.Fatal("the parked goroutine not seen in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	if GoroutineWith(frame, "testenv.noSuchFunction(") {
		t.Error("seen with a frame no stack has")
	}
	n := 0
	for _, g := range Goroutines() {
		if strings.Contains(g, frame) {
			n++
		}
	}
	close(ch)
	<-done
	if n != 1 {
		t.Errorf("%d goroutines name %s, want 1", n, frame)
	}
	if GoroutineWith(frame) {
		t.Error("seen after the goroutine ended")
	}
}
