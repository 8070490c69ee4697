package recall

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
)

// selectorCalls tracks the selector calls in flight, each by the goroutine
// running it, so that Shutdown can wait for every call except the one it
// is called from: a Selector may shut the engine down from inside Select
// (on a fatal provider error, say), and waiting for that call would wait
// for itself (docs/decisions/0607-shutdown-inside-select.md).
type selectorCalls struct {
	mu      sync.Mutex
	pending int                      // announced, neither begun nor withdrawn
	running map[uint64]chan struct{} // goroutine → closed when its call returns
}

// announce records a call that may begin.
func (c *selectorCalls) announce() {
	c.mu.Lock()
	c.pending++
	c.mu.Unlock()
}

// withdraw drops an announced call that never began.
func (c *selectorCalls) withdraw() {
	c.mu.Lock()
	c.pending--
	c.mu.Unlock()
}

// begin registers the announced call as running on the calling goroutine
// and returns the function that marks it returned.
func (c *selectorCalls) begin() (end func()) {
	id, done := goroutineID(), make(chan struct{})
	c.mu.Lock()
	c.pending--
	if c.running == nil {
		c.running = map[uint64]chan struct{}{}
	}
	c.running[id] = done
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.running, id)
		c.mu.Unlock()
		close(done)
	}
}

// waitOthers waits until every call is done except one running on the
// calling goroutine. The caller guarantees no call is still pending.
func (c *selectorCalls) waitOthers() {
	self := goroutineID()
	for {
		var wait chan struct{}
		c.mu.Lock()
		for id, done := range c.running {
			if id != self {
				wait = done
				break
			}
		}
		c.mu.Unlock()
		if wait == nil {
			return
		}
		<-wait
	}
}

// goroutineID returns the calling goroutine's number, from the first line
// of its stack trace ("goroutine 42 [running]:"). Go exposes no other way
// to tell "the caller is this call"; it runs once per selector call and
// once per Shutdown, next to a network round trip.
func goroutineID() uint64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	b := bytes.TrimPrefix(buf[:n], []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}
