package recall

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestPublishedOutwaitsTheCeiling: a plan whose scan takes longer than the
// initial ceiling delivers nothing at an Initial called at once; a host
// that first waits on Published (within a budget of its own) gets the fast
// delivery from the same Initial.
func TestPublishedOutwaitsTheCeiling(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		slow := func() *Engine {
			e, _ := f.engine(nil, 0)
			e.beforeScan = func() { time.Sleep(3 * initialCeiling) }
			return e
		}
		e := slow()
		defer e.Shutdown()
		if got := e.Query(t.Context(), Query{Text: "deploy"}).Initial(t.Context()); len(got.Docs) != 0 {
			t.Fatalf("Initial at once delivered %d documents before the slow scan ended", len(got.Docs))
		}

		e2 := slow()
		defer e2.Shutdown()
		p := e2.Query(t.Context(), Query{Text: "deploy"})
		start := time.Now()
		<-p.Published()
		if waited := time.Since(start); waited < 3*initialCeiling {
			t.Fatalf("Published closed after %v, before the scan could end", waited)
		}
		// No selector: the deterministic result settles the plan, so the
		// initial prompt carries the lexical top five.
		if got := p.Initial(t.Context()); len(got.Docs) != 5 {
			t.Fatalf("Initial after Published delivered %d documents, want the top 5", len(got.Docs))
		}
	})
}

// TestPublishedClosedAfterShutdown: the plan of a shut-down engine never
// publishes, and says so at once.
func TestPublishedClosedAfterShutdown(t *testing.T) {
	f := newFixture(t)
	e, _ := f.engine(nil, 0)
	e.Shutdown()
	select {
	case <-e.Query(t.Context(), Query{Text: "deploy"}).Published():
	default:
		t.Fatal("a closed plan's Published is open")
	}
}
