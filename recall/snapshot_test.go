package recall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/internal/testenv"
	"github.com/memrecall/memrecall/memory"
	"pgregory.net/rapid"
)

// freshCorpus is the corpus a new process would build for opts, with
// memory's racy window off so that files a test has just written are
// trusted from their stat (and so persisted): no test waits the 2 s
// window out.
func freshCorpus(opts Options) *Corpus {
	return newCorpus(opts, memory.WithRacyWindow(0))
}

// rankedMatch is a ranked document as a comparison sees it.
type rankedMatch struct {
	ID    memory.ID
	Score int
}

// ranked runs one deterministic query on a new engine over a new corpus
// (a fresh process) and returns its ranking and the snapshot counts.
func ranked(opts Options, text string) ([]rankedMatch, SnapshotStats) {
	c := freshCorpus(opts)
	opts.Corpus = c
	e := New(opts)
	p := e.Query(context.Background(), Query{Text: text})
	<-p.Settled()
	tr := p.Trace()
	p.End()
	e.Shutdown()
	out := make([]rankedMatch, len(tr.Ranked))
	for i, m := range tr.Ranked {
		out[i] = rankedMatch{m.Doc.ID, m.Score}
	}
	return out, e.SnapshotStats()
}

// TestEngineSnapshot: an engine with a SnapshotDir writes the snapshot
// (0600 in a 0700 directory) when it shuts down at the latest; the next
// engine on the unchanged tree loads it, documents and index postings, and
// ranks exactly as an engine without it; a file removed since is not
// returned.
func TestEngineSnapshot(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	dir := filepath.Join(t.TempDir(), "memrecall")
	plain := Options{ProjectDir: f.project, UserDir: f.user}
	withSnap := plain
	withSnap.SnapshotDir = dir

	want, st := ranked(plain, "deploy grafana")
	if st != (SnapshotStats{}) {
		t.Errorf("no SnapshotDir, yet stats %+v", st)
	}
	if len(want) == 0 {
		t.Fatal("the query ranks nothing: the comparison would prove nothing")
	}
	first, st := ranked(withSnap, "deploy grafana")
	if st.Written != 1 || st.Missing != 1 {
		t.Errorf("first engine's stats %+v, want one written", st)
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 1 {
		t.Fatalf("snapshot dir: %v, %v", ents, err)
	}
	fi, _ := ents[0].Info()
	di, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v, dir %v", fi.Mode().Perm(), di.Mode().Perm())
	}
	second, st := ranked(withSnap, "deploy grafana")
	if st.Loaded != 8 || st.Written != 0 || st.Ignored != 0 || st.ExtraIgnored != 0 {
		t.Errorf("second engine's stats %+v, want 8 loaded with their postings, nothing written", st)
	}
	for _, got := range [][]rankedMatch{first, second} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ranking with snapshot differs (-without +with):\n%s", diff)
		}
	}

	if err := os.Remove(string(f.id("grafana"))); err != nil {
		t.Fatal(err)
	}
	want, _ = ranked(plain, "deploy grafana")
	third, st := ranked(withSnap, "deploy grafana")
	if diff := cmp.Diff(want, third); diff != "" {
		t.Errorf("after a removal (-without +with):\n%s", diff)
	}
	if st.Loaded != 8 || st.Written != 1 {
		t.Errorf("third engine's stats %+v", st)
	}
}

// TestPropSnapshotRanksAsFresh: after any sequence of writes (new files,
// rewrites of the same size, new versions), removals, snapshot damage and
// fresh processes that write snapshots, a fresh process seeded from the
// snapshot — documents and index postings — ranks every query exactly as
// one without a snapshot: the same documents, the same scores, never a
// document that is not on disk now.
func TestPropSnapshotRanksAsFresh(t *testing.T) {
	t.Parallel()
	var seeded atomic.Int64 // fresh processes that ranked from loaded postings
	words := []string{"deploy", "grafana", "release", "tabs", "cafe", "服务器", "部署", "café", "usage", "schema", "retry"}
	base := t.TempDir()
	rapid.Check(t, func(rt *rapid.T) {
		// Nothing inside the check touches the outer t: a failure is the
		// rapid T's, so it is shrunk and reported as a sequence of steps.
		root, err := os.MkdirTemp(base, "case")
		if err != nil {
			rt.Fatal(err)
		}
		defer os.RemoveAll(root)
		plain := Options{ProjectDir: filepath.Join(root, "p"), UserDir: filepath.Join(root, "u")}
		withSnap := plain
		withSnap.SnapshotDir = filepath.Join(root, "cache")
		text := func(rt *rapid.T, label string, n int) string {
			var s string
			for i := range rapid.IntRange(1, n).Draw(rt, label) {
				if i > 0 {
					s += " "
				}
				s += rapid.SampledFrom(words).Draw(rt, label+"Word")
			}
			return s
		}
		path := func(rt *rapid.T) string {
			r := rapid.SampledFrom([]string{plain.ProjectDir, plain.UserDir}).Draw(rt, "root")
			return filepath.Join(r, rapid.SampledFrom([]string{"a.md", "b.md", "s/c.md", "s/d.md"}).Draw(rt, "name"))
		}
		tick := 0
		rt.Repeat(map[string]func(*rapid.T){
			"write": func(rt *rapid.T) {
				p := path(rt)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					rt.Fatal(err)
				}
				typ := rapid.SampledFrom([]string{"user", "project", "reference", "nonsense"}).Draw(rt, "type")
				body := fmt.Sprintf("---\ntype: %s\nname: %s\ndescription: %s\n---\n%s\n", typ,
					text(rt, "title", 3), text(rt, "desc", 4), text(rt, "body", 12))
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					rt.Fatal(err)
				}
				mt := time.Date(2026, 1, 1, 0, 0, tick, 0, time.UTC)
				tick++
				if err := os.Chtimes(p, mt, mt); err != nil {
					rt.Fatal(err)
				}
			},
			"remove": func(rt *rapid.T) { os.Remove(path(rt)) },
			"damage": func(rt *rapid.T) {
				ents, _ := os.ReadDir(withSnap.SnapshotDir)
				if len(ents) == 0 {
					return
				}
				file := filepath.Join(withSnap.SnapshotDir, ents[0].Name())
				data, err := os.ReadFile(file)
				if err != nil || len(data) == 0 {
					return
				}
				i := rapid.IntRange(0, len(data)-1).Draw(rt, "at")
				data[i] ^= byte(rapid.IntRange(1, 255).Draw(rt, "xor"))
				if err := os.WriteFile(file, data, 0o600); err != nil {
					rt.Fatal(err)
				}
			},
			"fresh process": func(rt *rapid.T) {
				q := text(rt, "query", 3)
				want, _ := ranked(plain, q)
				got, st := ranked(withSnap, q)
				if st.Loaded > 0 && st.ExtraIgnored == 0 {
					seeded.Add(1)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					rt.Fatalf("ranking of %q with the snapshot differs (-without +with):\n%s", q, diff)
				}
			},
		})
	})
	if seeded.Load() == 0 {
		t.Error("no fresh process ranked from loaded postings: the property tested nothing")
	}
}

// TestSnapshotWriteWaitsForRanking: the snapshot writer, which a scan
// starts before its result exists, indexes nothing while a plan of any
// engine on the corpus ranks (the corpus's gate, held here as a plan
// holds it): it waits at the gate, and writes once the gate is free.
//
// The writer waits for snapshotPatience at most (decision 0837), on the
// real clock here: what the test sees that long after the scan began
// may be the writer gone on by right, so it judges nothing then and
// skips (a loaded machine kept this goroutine off its core).
func TestSnapshotWriteWaitsForRanking(t *testing.T) {
	f := newFixture(t)
	c := freshCorpus(Options{ProjectDir: f.project, UserDir: f.user, SnapshotDir: filepath.Join(t.TempDir(), "memrecall")})
	defer c.Close()
	c.ranking.enter()
	began := time.Now() // before the writer can begin to wait
	if _, err := c.cat.Scan(context.Background()); err != nil {
		c.ranking.leave()
		t.Fatal(err)
	}
	// Until the writer is seen at the gate, or has written or indexed
	// without waiting there, or its patience may have run out.
	waiting := false
	for !waiting && c.cat.SnapshotStats().Written == 0 && c.index.Len() == 0 && time.Since(began) < snapshotPatience {
		waiting = writerAtGate()
		if !waiting {
			time.Sleep(time.Millisecond)
		}
	}
	// Both are read before the gate opens: once it does, the writer may
	// index and write at once.
	st := c.cat.SnapshotStats()
	indexed := c.index.Len()
	late := time.Since(began)
	c.ranking.leave()
	if late >= snapshotPatience {
		c.cat.WaitSnapshot()
		t.Skipf("checked %v after the scan began, past the writer's patience (%v): nothing to judge", late, snapshotPatience)
	}
	if st.Written != 0 {
		t.Errorf("written while a plan ranked: %+v", st)
	}
	if indexed != 0 {
		t.Errorf("the writer indexed %d documents while a plan ranked", indexed)
	}
	if !waiting {
		t.Fatal("the snapshot writer never waited at the corpus's gate")
	}
	c.cat.WaitSnapshot()
	if st := c.cat.SnapshotStats(); st.Written != 1 {
		t.Errorf("after the gate: %+v, want one written", st)
	}
}

// writerAtGate reports whether a goroutine waits at a rank gate from
// indexExtra.EncodeSnapshot.
func writerAtGate() bool {
	return testenv.GoroutineWith("recall.(*rankGate).waitAtMost(", "recall.indexExtra.EncodeSnapshot(")
}
