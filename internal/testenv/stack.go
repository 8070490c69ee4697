package testenv

import (
	"runtime"
	"strings"
)

// MutexWaiter reports whether some goroutine is blocked on a sync.Mutex
// with frame, a function as a stack trace names it (for instance
// "daemon.(*Server).Status("), on its stack: what a test polls for to
// know that a call has come to wait for a lock the test holds.
func MutexWaiter(frame string) bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if strings.Contains(header, "sync.Mutex.Lock") && strings.Contains(g, frame) {
			return true
		}
	}
	return false
}
