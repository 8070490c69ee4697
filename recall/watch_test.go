package recall

import (
	"os"
	"runtime"
	"testing"
	"testing/synctest"

	"github.com/memrecall/memrecall/memory"
)

// TestWatchedEngineSeesEveryChange: with the catalog's watch on (the
// default), a memory written, rewritten or removed before a query is what
// that query ranks, and a query on an unchanged tree reads nothing but
// the watch. The bubble fails if any goroutine outlives Shutdown.
func TestWatchedEngineSeesEveryChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t)
		e, _ := f.engine(nil, 0)
		defer e.Shutdown()
		ranked := func(q string) []memory.ID {
			t.Helper()
			p := e.Query(t.Context(), Query{Text: q})
			return p.Initial(t.Context()).Docs
		}
		ranked("deploy")
		<-e.Warmed()
		if got := ranked("zebra"); len(got) != 0 {
			t.Fatalf("zebra before any zebra note: %v", got)
		}
		if res, ok := e.cat.Current(); runtime.GOOS == "linux" && (!ok || !res.Stats.Watched) {
			t.Fatalf("unchanged tree not answered by the watch (ok=%v)", ok)
		}
		f.write(t, memory.ScopeProject, "zoo/zebra.md", "project", "Zebra crossing", "stripes", "The zebra rule.", 1)
		if got := ranked("zebra"); len(got) != 1 {
			t.Fatalf("a note written before the query is not ranked: %v", got)
		}
		f.write(t, memory.ScopeProject, "zoo/zebra.md", "project", "Okapi crossing", "stripes", "The okapi rule.", 1)
		if got := ranked("zebra"); len(got) != 0 {
			t.Fatalf("a note rewritten before the query is ranked as it was: %v", got)
		}
		e.Reset() // the note's path was delivered: eligible again only after a reset
		if got := ranked("okapi"); len(got) != 1 {
			t.Fatalf("the rewritten note is not ranked: %v", got)
		}
		if err := os.RemoveAll(f.project + "/zoo"); err != nil {
			t.Fatal(err)
		}
		if got := ranked("okapi"); len(got) != 0 {
			t.Fatalf("a note removed before the query is ranked: %v", got)
		}
	})
}

// TestShutdownReleasesWatch: an engine that built its own corpus closes
// its watch at Shutdown; one on a shared corpus leaves it to the corpus's
// owner.
func TestShutdownReleasesWatch(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the watch is Linux's")
	}
	f := newFixture(t)
	e, _ := f.engine(nil, 0)
	<-e.Warmed()
	e.Query(t.Context(), Query{Text: "deploy"}).Initial(t.Context())
	if !e.cat.Watching() {
		t.Error("the engine does not watch its tree")
	}
	e.Shutdown()
	if e.cat.Watching() {
		t.Error("the engine's watch outlives Shutdown")
	}

	c := NewCorpus(Options{ProjectDir: f.project, UserDir: f.user})
	e = New(Options{Corpus: c})
	<-e.Warmed()
	e.Query(t.Context(), Query{Text: "deploy"}).Initial(t.Context())
	e.Shutdown()
	if !c.cat.Watching() {
		t.Error("Shutdown of an engine on a shared corpus closed the corpus's watch")
	}
	c.Close()
	if c.cat.Watching() {
		t.Error("the watch outlives Corpus.Close")
	}
	e = New(Options{ProjectDir: f.project, StatOnly: true})
	defer e.Shutdown()
	<-e.Warmed()
	e.Query(t.Context(), Query{Text: "deploy"}).Initial(t.Context())
	if e.cat.Watching() {
		t.Error("a StatOnly engine watches")
	}
}
