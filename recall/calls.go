package recall

import (
	"context"
	"sync"
)

// selectorCalls tracks the selector calls in flight, so that Shutdown can
// wait for every call except the one it is called from: a Selector may
// shut the engine down from inside Select (on a fatal provider error,
// say), and waiting for that call would wait for itself. Each call carries
// a token in the context Select receives; ShutdownFrom reads it back from
// the context it is given and leaves that call out of its wait
// (docs/decisions/0904-shutdown-call-token.md).
type selectorCalls struct {
	mu      sync.Mutex
	pending int                        // announced, neither begun nor withdrawn
	running map[*selectorCall]struct{} // calls that began and have not returned
}

// selectorCall is one running call's token: its identity, and closed
// when the call returns.
type selectorCall struct{ done chan struct{} }

// callKey is the context key of the running call's token.
type callKey struct{}

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

// begin registers the announced call as running and returns the context
// to run it under, which carries its token, and the function that marks
// it returned.
func (c *selectorCalls) begin(ctx context.Context) (context.Context, func()) {
	call := &selectorCall{done: make(chan struct{})}
	c.mu.Lock()
	c.pending--
	if c.running == nil {
		c.running = map[*selectorCall]struct{}{}
	}
	c.running[call] = struct{}{}
	c.mu.Unlock()
	return context.WithValue(ctx, callKey{}, call), func() {
		c.mu.Lock()
		delete(c.running, call)
		c.mu.Unlock()
		close(call.done)
	}
}

// waitOthers waits until every call is done except the one whose token
// ctx carries, if any (a token of another engine's call matches none of
// these). The caller guarantees no call is still pending.
func (c *selectorCalls) waitOthers(ctx context.Context) {
	self, _ := ctx.Value(callKey{}).(*selectorCall)
	for {
		var wait chan struct{}
		c.mu.Lock()
		for call := range c.running {
			if call != self {
				wait = call.done
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
