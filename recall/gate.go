package recall

import (
	"context"
	"sync"
	"time"
)

// rankGate lets the engine's background index build give way to queries
// that are ranking. A cold query scores the documents the index has not
// seen on every core (score.Index); the warm-up indexing the same documents
// on one of those cores meanwhile would only slow it down, and its result
// is for later queries. So a plan holds the gate from its start until it
// has published its deterministic result (decision 0612), and the warm-up
// waits for the gate to be free before each chunk it indexes. See
// docs/decisions/0605-cold-path.md.
type rankGate struct {
	mu   sync.Mutex
	busy int           // plans between start and published; guarded by mu
	free chan struct{} // closed when busy drops to 0; nil if nobody waits
}

// enter marks a plan that will rank.
func (g *rankGate) enter() {
	g.mu.Lock()
	g.busy++
	g.mu.Unlock()
}

// leave marks a plan that has published or given up. Every enter is matched
// by exactly one leave.
func (g *rankGate) leave() {
	g.mu.Lock()
	g.busy--
	if g.busy == 0 && g.free != nil {
		close(g.free)
		g.free = nil
	}
	g.mu.Unlock()
}

// wait returns when no plan is ranking, or when ctx ends.
func (g *rankGate) wait(ctx context.Context) {
	free := g.freed()
	if free == nil {
		return
	}
	select {
	case <-free:
	case <-ctx.Done():
	}
}

// waitAtMost is wait under a deadline d from now: it returns when no plan
// is ranking, or once d has passed, whichever comes first, and reports
// how long it waited. It serves a caller whose yielding has a budget (the
// snapshot writer, indexExtra.EncodeSnapshot), and only the waiting counts
// against it. d <= 0 returns at once.
func (g *rankGate) waitAtMost(d time.Duration) time.Duration {
	if d <= 0 || g.freed() == nil {
		return 0 // the usual case, a free gate: no context, no timer
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	g.wait(ctx)
	return time.Since(start)
}

// freed returns a channel that is closed when no plan ranks any more, or
// nil when none ranks now.
func (g *rankGate) freed() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy == 0 {
		return nil
	}
	if g.free == nil {
		g.free = make(chan struct{})
	}
	return g.free
}
