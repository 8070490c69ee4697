package recall

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestWatchedEngineMatchesStatOnly: an engine whose catalog watches the
// tree (the default) answers every query exactly as one that revalidates
// by stat, whatever was written, rewritten, renamed or removed before the
// query, on the small tree's path (revalidate before ranking) and on the
// large tree's (rank the last result unless the watch vouches for it).
func TestWatchedEngineMatchesStatOnly(t *testing.T) {
	t.Parallel() // mostly file-system calls and waits: overlaps well
	// vouched counts the large-path queries compared, not skipped as stale.
	var vouched atomic.Int64
	rapid.Check(t, func(rt *rapid.T) {
		checkWatchedMatchesStatOnly(t, rt, rapid.Bool().Draw(rt, "large"), &vouched)
	})
	if runtime.GOOS == "linux" && vouched.Load() == 0 {
		t.Error("no large-path query was answered by the watch: that half compared nothing")
	}
}

func checkWatchedMatchesStatOnly(t *testing.T, rt *rapid.T, large bool, vouched *atomic.Int64) {
	root := t.TempDir()
	defer os.RemoveAll(root)
	proj := filepath.Join(root, "project")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		rt.Fatal(err)
	}
	watched := New(Options{ProjectDir: proj})
	defer watched.Shutdown()
	statOnly := New(Options{ProjectDir: proj, StatOnly: true})
	defer statOnly.Shutdown()
	<-watched.Warmed()
	<-statOnly.Warmed()
	if large {
		// Take the large tree's path: rank the last result unless the
		// watch vouches for it. The stat-only engine stays exact.
		watched.syncScanMax = -1
	}
	words := []string{"zebra", "okapi", "lemur", "tapir"}
	names := []string{"a.md", "b.md", "sub/c.md", "sub/deep/d.md"}
	query := func(rt *rapid.T) {
		q := Query{Text: rapid.SampledFrom(words).Draw(rt, "query")}
		ctx := context.Background()
		watched.Reset()
		statOnly.Reset()
		// Wait for each plan to settle (at its publish: no selector), so
		// a loaded machine's scheduling cannot pass the initial ceiling.
		p := watched.Query(ctx, q)
		<-p.Settled()
		got := p.Initial(ctx).Docs
		ps := statOnly.Query(ctx, q)
		<-ps.Settled()
		want := ps.Initial(ctx).Docs
		if p.Trace().Stale {
			// The large tree's path when the watch could not vouch: the
			// last result, revalidated after the initial point (0603).
			return
		}
		if large {
			vouched.Add(1)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			rt.Fatalf("watched engine differs from the stat-only one (-stat +watched):\n%s", diff)
		}
	}
	rt.Repeat(map[string]func(*rapid.T){
		"write": func(rt *rapid.T) {
			p := filepath.Join(proj, filepath.FromSlash(rapid.SampledFrom(names).Draw(rt, "name")))
			w := rapid.SampledFrom(words).Draw(rt, "word")
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("---\ntype: project\nname: The "+w+" note\ndescription: about the "+w+"\n---\nThe "+w+" rule.\n"), 0o644)
			query(rt)
		},
		"rename": func(rt *rapid.T) {
			from := filepath.Join(proj, filepath.FromSlash(rapid.SampledFrom(names).Draw(rt, "from")))
			to := filepath.Join(proj, filepath.FromSlash(rapid.SampledFrom(names).Draw(rt, "to")))
			os.MkdirAll(filepath.Dir(to), 0o755)
			os.Rename(from, to)
			query(rt)
		},
		"remove": func(rt *rapid.T) {
			os.RemoveAll(filepath.Join(proj, filepath.FromSlash(rapid.SampledFrom(append(names, "sub")).Draw(rt, "name"))))
			query(rt)
		},
		"query": query,
	})
}
