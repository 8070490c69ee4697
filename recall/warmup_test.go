package recall

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/internal/testenv"
	"github.com/memrecall/memrecall/memory"
)

// An engine with Options.NoWarmUp reads nothing until its first query, and
// that query answers exactly as the same query on an engine that warmed
// up first.
func TestNoWarmUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		opts := func(noWarm bool) Options {
			return Options{
				ProjectDir: f.project, UserDir: f.user, NoWarmUp: noWarm, StatOnly: true,
				Clock: func() time.Time { return fixtureNow },
			}
		}
		type answer struct {
			Text   string
			Docs   []memory.ID
			Ranked []memory.ID
		}
		ask := func(e *Engine) answer {
			p := e.Query(t.Context(), Query{Text: "deploy release"})
			inj := p.Initial(t.Context())
			<-p.Settled()
			p.End()
			a := answer{Text: inj.Text, Docs: inj.Docs}
			for _, m := range p.Trace().Ranked {
				a.Ranked = append(a.Ranked, m.Doc.ID)
			}
			return a
		}

		warm := New(opts(false))
		defer warm.Shutdown()
		<-warm.Warmed()
		want := ask(warm)

		o := opts(true)
		o.Corpus = NewCorpus(o)
		defer o.Corpus.Close()
		cold := New(o)
		defer cold.Shutdown()
		select {
		case <-cold.Warmed():
		default:
			t.Fatal("Warmed is not closed at once without a warm-up")
		}
		synctest.Wait() // a warm-up, had one started, would have scanned by now
		if n, scanned := o.Corpus.Documents(); scanned {
			t.Fatalf("the catalog scanned (%d documents) before any query", n)
		}
		got := ask(cold)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("first query without a warm-up (-warmed +not):\n%s", diff)
		}
		if len(got.Docs) == 0 {
			t.Error("the query delivered nothing")
		}
		if n, scanned := o.Corpus.Documents(); !scanned || n != 8 {
			t.Errorf("after the query: %d documents, scanned %v; want 8, true", n, scanned)
		}
	})
}

// The warm-up's ranking for nothing (primeRank) leaves no trace a host can
// see: no telemetry, nothing surfaced in the session, so the first query
// after Warmed is delivered what it would have been without it (its answer
// is TestNoWarmUp's).
func TestWarmUpPrimeLeavesNoTrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, rec := f.engine(nil, 0)
		defer e.Shutdown()
		<-e.Warmed()
		if !e.primed {
			t.Fatal("the warm-up did not run its ranking for nothing: nothing here tests it")
		}
		if ev := rec.Events(); len(ev) != 0 {
			t.Errorf("the warm-up sent telemetry: %v", ev)
		}
		e.mu.Lock()
		surfaced := e.sess.SurfacedDocs()
		e.mu.Unlock()
		if len(surfaced) != 0 {
			t.Errorf("the warm-up surfaced %v", surfaced)
		}
		if e.index.RelayoutDue() {
			t.Error("the warm-up's ranking left a re-layout due")
		}
	})
}

// The warm-up ends that BenchmarkFirstQueryAfterWarmed compares differ
// as their names say: only the shipped end primes, and every end answers
// the first query alike.
func TestWarmUpEnds(t *testing.T) {
	f := newFixture(t)
	var want []memory.ID
	for _, tc := range []struct {
		end    warmUpEnd
		primed bool
	}{{warmUpRelease, true}, {warmUpReleaseOnly, false}, {warmUpKeep, false}} {
		e := newEngine(Options{ProjectDir: f.project, UserDir: f.user, StatOnly: true}, 0, tc.end)
		<-e.Warmed()
		if e.primed != tc.primed {
			t.Errorf("warm-up end %d: primed %v, want %v", tc.end, e.primed, tc.primed)
		}
		p := e.Query(t.Context(), Query{Text: "deploy"})
		<-p.Settled()
		var got []memory.ID
		for _, m := range p.Trace().Ranked {
			got = append(got, m.Doc.ID)
		}
		p.End()
		e.Shutdown()
		if want == nil {
			want = got
		} else if d := cmp.Diff(want, got); d != "" {
			t.Errorf("warm-up end %d ranks differently (-shipped +this):\n%s", tc.end, d)
		}
	}
	if len(want) == 0 {
		t.Error("the query ranked nothing: nothing here compares the answers")
	}
}

// An empty query (no scored token, no tool) on an engine without a
// warm-up keeps every document and ranks none, as on a warmed engine, and
// indexes nothing: the tree has more documents than one Rank indexes
// directly, so indexing them would be the empty query's whole cost
// (decision 0812).
func TestNoWarmUpEmptyQuery(t *testing.T) {
	project, user, _, err := gentree.Write(t.TempDir(), gentree.English, 100)
	if err != nil {
		t.Fatal(err)
	}
	opts := func(noWarm bool) Options {
		return Options{ProjectDir: project, UserDir: user, NoWarmUp: noWarm, StatOnly: true}
	}
	type answer struct {
		Text             string
		Docs             []memory.ID
		Ranked           []memory.ID
		Kept, Candidates int
	}
	ask := func(e *Engine, text string) answer {
		p := e.Query(t.Context(), Query{Text: text})
		inj := p.Initial(t.Context())
		<-p.Settled()
		p.End()
		tr := p.Trace()
		a := answer{Text: inj.Text, Docs: inj.Docs, Kept: tr.Kept, Candidates: len(tr.Candidates)}
		for _, m := range tr.Ranked {
			a.Ranked = append(a.Ranked, m.Doc.ID)
		}
		return a
	}
	warm := New(opts(false))
	defer warm.Shutdown()
	<-warm.Warmed()
	for _, text := range []string{"x", "the", "x y", "the of"} {
		t.Run(text, func(t *testing.T) {
			want := ask(warm, text)
			if want.Kept != 100 {
				t.Fatalf("the warmed engine kept %d documents, want 100", want.Kept)
			}
			cold := New(opts(true))
			defer cold.Shutdown()
			if diff := cmp.Diff(want, ask(cold, text)); diff != "" {
				t.Errorf("empty query without a warm-up (-warmed +not):\n%s", diff)
			}
			if n := cold.index.Len(); n != 0 {
				t.Errorf("the empty query indexed %d documents", n)
			}
		})
	}
}

// The warm-up's prime ranks only the catalog's last scan: on a Corpus shared
// with other sessions, a query may have ranked a newer tree meanwhile, and
// ranking the warm-up's older documents would evict that query's entries.
func TestPrimeRankSkipsOlderDocuments(t *testing.T) {
	f := newFixture(t)
	e, _ := f.engine(nil, 0)
	defer e.Shutdown()
	<-e.Warmed()
	old, ok := e.cat.Last()
	if !ok {
		t.Fatal("no scan after Warmed")
	}
	// Another session's query finds a changed topic and ranks the newer tree.
	f.write(t, memory.ScopeProject, "deploy-1.md", "project", "Deploy note 1", "steps for the release, changed", "Body of note, changed.", 1)
	p := e.Query(t.Context(), Query{Text: "deploy"})
	<-p.Settled()
	p.End()
	cur, ok := e.cat.Last()
	if !ok || slices.Equal(cur.Docs, old.Docs) {
		t.Fatal("the query's scan did not see the changed topic")
	}
	if e.primeRank(old.Docs) {
		t.Error("primeRank ranked the warm-up's older documents over a newer scan")
	}
	if !e.primeRank(cur.Docs) {
		t.Error("primeRank skipped the catalog's last scan")
	}
}

// A scan that lands between primeRank's check and its ranking (another
// session's query on the shared Corpus, which the engine's own rank gate
// does not hold back) must not have its ranking undone: the check and the
// ranking are one step under the index's lock, so that query ranks its
// newer tree after the prime and its new document stays indexed. With the
// check outside the lock, the query ranks first and the prime evicts its
// new document.
func TestPrimeRankScanInWindow(t *testing.T) {
	f := newFixture(t)
	e, _ := f.engine(nil, 0)
	defer e.Shutdown()
	<-e.Warmed()
	old, ok := e.cat.Last()
	if !ok {
		t.Fatal("no scan after Warmed")
	}
	var p *Plan
	e.primeChecked = func() {
		// Another session adds a topic and queries: its scan lands here.
		f.write(t, memory.ScopeProject, "deploy-new.md", "project", "Deploy note new", "steps for the new release", "Body of the new note.", 1)
		p = e.Query(t.Context(), Query{Text: "deploy"})
		// Let the query run until it has published or waits for the index.
		for i := 0; ; i++ {
			select {
			case <-p.Published():
				return
			default:
			}
			if testenv.MutexWaiter("score.(*Index).Rank(") {
				return
			}
			if i == 10000 {
				t.Error("the query neither published nor waited for the index in 10 s")
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	if !e.primeRank(old.Docs) {
		t.Fatal("primeRank skipped the catalog's last scan")
	}
	e.primeChecked = nil
	if p == nil {
		t.Fatal("the seam did not run")
	}
	<-p.Settled()
	p.End()
	cur, _ := e.cat.Last()
	if len(cur.Docs) != len(old.Docs)+1 {
		t.Fatalf("the query's scan found %d documents, want %d", len(cur.Docs), len(old.Docs)+1)
	}
	if got := e.index.Len(); got != len(cur.Docs) {
		t.Errorf("the index holds %d documents after the prime and the query, want the %d of the newer tree: the prime evicted the query's new document", got, len(cur.Docs))
	}
}
