package recall

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// relayoutEngine returns a warmed engine on a tree of 40 notes of 60
// distinct words each, its index frozen by the warm-up, and a function
// that removes all but five notes: the next query then evicts far more
// postings than stay live, which makes a re-layout due (score's threshold
// is 1,024 stale postings and more stale than live).
func relayoutEngine(t *testing.T) (*Engine, func()) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i := range 40 {
		var words []string
		for j := range 60 {
			words = append(words, fmt.Sprintf("w%dx%d", i, j))
		}
		path := filepath.Join(dir, fmt.Sprintf("note-%d.md", i))
		text := fmt.Sprintf("---\ntype: project\nname: Deploy note %d\ndescription: release steps\n---\n%s\n", i, strings.Join(words, " "))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	e := New(Options{ProjectDir: dir, StatOnly: true})
	<-e.Warmed()
	if e.index.RelayoutDue() {
		t.Fatal("a re-layout is due before any eviction")
	}
	return e, func() {
		for _, p := range paths[5:] {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// askDeploy runs one deterministic query for "deploy" to its end.
func askDeploy(t *testing.T, e *Engine) {
	t.Helper()
	p := e.Query(t.Context(), Query{Text: "deploy"})
	<-p.Settled()
	if n := len(p.Trace().Ranked); n != 5 {
		t.Errorf("the query ranked %d notes, want the 5 left", n)
	}
	p.End()
}

// TestQueryStartsRelayout: a query whose evictions make a re-layout due
// has the engine start Index.Relayout after it (Rank never does it,
// decision 0906): once Shutdown has waited for the engine's goroutines,
// none is due any more.
func TestQueryStartsRelayout(t *testing.T) {
	e, evict := relayoutEngine(t)
	var calls atomic.Int32
	relayout := e.relayout
	e.relayout = func() bool { calls.Add(1); return relayout() }
	evict()
	askDeploy(t, e)
	e.Shutdown()
	if n := calls.Load(); n != 1 {
		t.Errorf("the engine started Relayout %d times, want 1", n)
	}
	if e.index.RelayoutDue() {
		t.Error("a re-layout is still due after the query and Shutdown")
	}
}

// TestOneRelayoutAtATime: while a re-layout goroutine runs (held here),
// later queries that still find one due start no other; once it is done,
// none is due.
func TestOneRelayoutAtATime(t *testing.T) {
	e, evict := relayoutEngine(t)
	var calls, running, most atomic.Int32
	release := make(chan struct{})
	relayout := e.relayout
	e.relayout = func() bool {
		calls.Add(1)
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		defer running.Add(-1)
		return relayout()
	}
	evict()
	for range 4 {
		askDeploy(t, e)
		if !e.index.RelayoutDue() {
			t.Fatal("no re-layout due while the first one is held")
		}
	}
	close(release)
	e.Shutdown()
	if n, m := calls.Load(), most.Load(); n != 1 || m != 1 {
		t.Errorf("Relayout started %d times, at most %d at once; want 1 and 1", n, m)
	}
	if e.index.RelayoutDue() {
		t.Error("a re-layout is still due after it ran")
	}
}
