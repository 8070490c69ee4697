package recall

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/score"
)

// holders are the two ways plans can keep the corpus's gate from ever
// being free: one plan that never leaves it (a scan of a hung file
// system), and plans that overlap without end (a busy daemon's sessions
// querying back to back), each starting before the last has published.
// hold starts holding g and returns a stop that ends it and reports
// whether the gate was still held when it was called: the overlapping
// plans run out on their own after ten minutes, so that a writer without
// patience ends the test instead of hanging it.
var holders = []struct {
	name string
	hold func(g *rankGate) (stop func() (held bool))
}{
	{"one plan never leaves", func(g *rankGate) func() bool {
		g.enter()
		return func() bool { g.leave(); return true }
	}},
	{"plans overlap without end", func(g *rankGate) func() bool {
		quit, done := make(chan struct{}), make(chan bool)
		g.enter()
		go func() {
			for range 10 * time.Minute / (100 * time.Millisecond) {
				select {
				case <-quit:
					g.leave()
					done <- true
					return
				case <-time.After(100 * time.Millisecond):
				}
				g.enter() // the next plan starts
				g.leave() // before the last one has published
			}
			g.leave()
			<-quit
			done <- false
		}()
		return func() bool { close(quit); return <-done }
	}},
}

// TestSnapshotWriteHasPatience: the snapshot writer yields to ranking
// for snapshotPatience in all and then indexes and encodes anyway, so a
// corpus whose gate is never free holds a write back for that long and
// no longer (review finding rv8h-7); what it writes then is what it
// writes on a free gate. Time is synctest's: the patience passes at once
// and exactly.
func TestSnapshotWriteHasPatience(t *testing.T) {
	f := newFixture(t)
	res, err := memory.NewCatalog(memory.Roots{Project: f.project, User: f.user}).Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	docs := res.Docs
	free := indexExtra{score.NewIndex(), &rankGate{}, new(atomic.Int64)}
	want := loadedRanking(t, docs, free.EncodeSnapshot(docs))
	if len(want) == 0 {
		t.Fatal("the query ranks nothing: the comparison below would test nothing")
	}
	if n := free.impatient.Load(); n != 0 {
		t.Errorf("a write on a free gate counted %d as out of patience", n)
	}
	for _, h := range holders {
		t.Run(h.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				x := indexExtra{score.NewIndex(), &rankGate{}, new(atomic.Int64)}
				stop := h.hold(x.ranking)
				start := time.Now()
				out := make(chan []byte, 1)
				go func() { out <- x.EncodeSnapshot(docs) }()
				synctest.Wait()
				if n := x.ix.Len(); n != 0 {
					t.Errorf("the writer indexed %d documents before its patience ran out", n)
				}
				var got []byte
				select {
				case got = <-out:
				case <-time.After(time.Hour):
				}
				took := time.Since(start)
				if held := stop(); !held || got == nil {
					if got == nil {
						<-out // the gate is free now
					}
					t.Fatalf("the writer waited for the gate to be free (%v)", took)
				}
				if took != snapshotPatience {
					t.Errorf("the write waited %v at the gate, want snapshotPatience (%v)", took, snapshotPatience)
				}
				if n := x.impatient.Load(); n != 1 {
					t.Errorf("%d writes counted as out of patience, want 1", n)
				}
				if diff := cmp.Diff(want, loadedRanking(t, docs, got)); diff != "" {
					t.Errorf("postings of the write that ran out of patience rank unlike a write's on a free gate (-free +held):\n%s", diff)
				}
			})
		})
	}
}

// loadedRanking loads encoded postings of docs into a new index, as a
// fresh process does, and ranks docs with it.
func loadedRanking(t *testing.T, docs []*memory.Document, data []byte) []rankedMatch {
	t.Helper()
	ix := score.NewIndex()
	if err := ix.LoadFrozen(docs, data); err != nil {
		t.Fatalf("postings do not load: %v", err)
	}
	_, found := ix.Rank(score.NewQuery("deploy release tabs graphs", nil), docs)
	out := make([]rankedMatch, len(found))
	for i, m := range found {
		out[i] = rankedMatch{m.Doc.ID, m.Score}
	}
	return out
}

// TestShutdownOutwaitsHeldGate: an engine's Shutdown waits for its
// corpus's snapshot write, which waits at the corpus's gate; with the
// gate never free (a plan that never leaves, plans that overlap without
// end) Shutdown still returns, with the snapshot written, once the
// write's patience has run out (review finding rv8h-7: it waited as long
// as the gate was held). In the bubble every file is in the racy window
// (its ctime is after the fake clock's), so the write holds no document;
// its wait before the encoding is the one held back.
func TestShutdownOutwaitsHeldGate(t *testing.T) {
	f := newFixture(t)
	for _, h := range holders {
		t.Run(h.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memrecall")
			synctest.Test(t, func(t *testing.T) {
				e := New(Options{ProjectDir: f.project, UserDir: f.user, SnapshotDir: dir, StatOnly: true, NoWarmUp: true})
				stop := h.hold(e.ranking)
				if _, err := e.cat.Scan(context.Background()); err != nil { // queues a write
					stop()
					t.Fatal(err)
				}
				down := make(chan struct{})
				go func() {
					e.Shutdown()
					close(down)
				}()
				returned := false
				select {
				case <-down:
					returned = true
				case <-time.After(time.Hour):
				}
				if held := stop(); !held || !returned {
					<-down // the gate is free now
					t.Fatal("Shutdown waited for the corpus's gate to be free")
				}
				if st := e.SnapshotStats(); st.Written != 1 || st.WriteErrors != 0 || st.Impatient != 1 {
					t.Errorf("after Shutdown: %+v, want one snapshot written, out of patience", st)
				}
			})
		})
	}
}

// TestSnapshotImpatientCounted: SnapshotStats.Impatient counts a write
// that spent its whole patience at the gate, once, and no write that the
// plans let through in time, however long it waited (synctest's clock:
// the plans leave exactly when asked).
func TestSnapshotImpatientCounted(t *testing.T) {
	f := newFixture(t)
	res, err := memory.NewCatalog(memory.Roots{Project: f.project, User: f.user}).Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		leave time.Duration // when the plan leaves the gate; 0: free
		want  int64
	}{
		{"free gate", 0, 0},
		{"plan leaves at once", time.Nanosecond, 0},
		{"plan leaves within patience", snapshotPatience - time.Millisecond, 0},
		{"plan leaves after patience", snapshotPatience + time.Second, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				x := indexExtra{score.NewIndex(), &rankGate{}, new(atomic.Int64)}
				left := make(chan struct{})
				if tc.leave > 0 {
					x.ranking.enter()
					go func() {
						time.Sleep(tc.leave)
						x.ranking.leave()
						close(left)
					}()
				} else {
					close(left)
				}
				if x.EncodeSnapshot(res.Docs) == nil {
					t.Error("no encoding")
				}
				<-left
				if n := x.impatient.Load(); n != tc.want {
					t.Errorf("%d writes counted as out of patience, want %d", n, tc.want)
				}
			})
		})
	}
}
