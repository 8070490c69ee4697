package testenv

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Goroutines returns every goroutine's stack trace, one element each, as
// runtime.Stack prints them: the header line ("goroutine N [state]:"),
// the frames, and the "created by" lines. The buffer grows until the
// whole dump fits; runtime.Stack silently cuts a dump that does not.
func Goroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	return strings.Split(string(buf), "\n\n")
}

// GoroutineWith reports whether some goroutine's stack names every one
// of frames (functions as a stack trace names them, for instance
// "recall.(*rankGate).wait("): what a test polls for to know that a
// goroutine it cannot reach has come to a given wait.
func GoroutineWith(frames ...string) bool {
	for _, g := range Goroutines() {
		if containsAll(g, frames) {
			return true
		}
	}
	return false
}

// MutexWaiter reports whether some goroutine is blocked on a sync.Mutex
// with frame, a function as a stack trace names it (for instance
// "daemon.(*Server).Status("), on its stack: what a test polls for to
// know that a call has come to wait for a lock the test holds.
func MutexWaiter(frame string) bool {
	for _, g := range Goroutines() {
		header, _, _ := strings.Cut(g, "\n")
		if strings.Contains(header, "sync.Mutex.Lock") && strings.Contains(g, frame) {
			return true
		}
	}
	return false
}

// AwaitMutexWaiter polls MutexWaiter(frame) every millisecond until a
// goroutine is blocked in Lock under frame. After 10 s it calls release
// (the test's unlock, so that the blocked goroutine can end) and fails
// the test, saying that what did not come to wait.
func AwaitMutexWaiter(t testing.TB, frame, what string, release func()) {
	t.Helper()
	for i := 0; !MutexWaiter(frame); i++ {
		if i == 10000 {
			release()
			t.Fatalf("%s did not come to wait for the lock in 10 s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
