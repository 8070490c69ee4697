package recall

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
)

// rankedIDs runs one deterministic query on a new engine and returns its
// ranking and the engine's snapshot counts.
func rankedIDs(t *testing.T, opts Options, text string) ([]memory.ID, memory.SnapshotStats) {
	t.Helper()
	e := New(opts)
	p := e.Query(context.Background(), Query{Text: text})
	<-p.Settled()
	tr := p.Trace()
	p.End()
	e.Shutdown()
	ids := make([]memory.ID, len(tr.Ranked))
	for i, m := range tr.Ranked {
		ids[i] = m.Doc.ID
	}
	return ids, e.SnapshotStats()
}

// TestEngineSnapshot: an engine with a SnapshotDir writes the snapshot
// (0600 in a 0700 directory) when it shuts down at the latest; the next
// engine on the unchanged tree loads it and ranks exactly as an engine
// without it; a file removed since is not returned.
func TestEngineSnapshot(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// The fixture's files were just written: until memory's racy window
	// (2 s) has passed their stat is not trusted, so not persisted.
	time.Sleep(2100 * time.Millisecond)
	dir := filepath.Join(t.TempDir(), "memrecall")
	plain := Options{ProjectDir: f.project, UserDir: f.user}
	withSnap := plain
	withSnap.SnapshotDir = dir

	want, st := rankedIDs(t, plain, "deploy grafana")
	if st != (memory.SnapshotStats{}) {
		t.Errorf("no SnapshotDir, yet stats %+v", st)
	}
	first, st := rankedIDs(t, withSnap, "deploy grafana")
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
	second, st := rankedIDs(t, withSnap, "deploy grafana")
	if st.Loaded != 8 || st.Written != 0 || st.Ignored != 0 {
		t.Errorf("second engine's stats %+v, want 8 loaded, nothing written", st)
	}
	for _, got := range [][]memory.ID{first, second} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ranking with snapshot differs (-without +with):\n%s", diff)
		}
	}

	if err := os.Remove(string(f.id("grafana"))); err != nil {
		t.Fatal(err)
	}
	want, _ = rankedIDs(t, plain, "deploy grafana")
	third, st := rankedIDs(t, withSnap, "deploy grafana")
	if diff := cmp.Diff(want, third); diff != "" {
		t.Errorf("after a removal (-without +with):\n%s", diff)
	}
	if st.Loaded != 8 || st.Written != 1 {
		t.Errorf("third engine's stats %+v", st)
	}
}
