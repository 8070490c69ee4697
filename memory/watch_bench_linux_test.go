//go:build linux

package memory

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/gentree"
)

// BenchmarkWatch compares, in one run on the 1,000-topic tree of
// internal/gentree (20 directories): "stat", a warm Scan of the unchanged
// tree revalidated by stat (a listing per directory, an fstatat per file);
// "watched", the same Scan with the watch (a drain and two root stats);
// "rearm", a watched catalog made to rescan every time (an event on a
// scope root), which is "stat" plus arming a new watch.
func BenchmarkWatch(b *testing.B) {
	dir := b.TempDir()
	project, user, _, err := gentree.Write(dir, gentree.English, 1000)
	if err != nil {
		b.Fatal(err)
	}
	roots := Roots{Project: project, User: user}
	// The files were just written: without the racy window "stat" and
	// "rearm" read nothing, as on a tree written seconds ago or more.
	catalog := func(opts ...Option) *Catalog {
		c := NewCatalog(roots, opts...)
		c.racyWindow = 0
		return c
	}
	old := time.Now().Add(-time.Hour)
	run := func(b *testing.B, c *Catalog, before func(), want bool) {
		if _, err := c.Scan(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			before()
			res, err := c.Scan(context.Background())
			if err != nil || res.Stats.Watched != want || res.Stats.Read != 0 {
				b.Fatalf("watched=%v read=%d err=%v", res.Stats.Watched, res.Stats.Read, err)
			}
		}
	}
	b.Run("stat", func(b *testing.B) {
		run(b, catalog(), func() {}, false)
	})
	b.Run("watched", func(b *testing.B) {
		c := catalog(WithWatch())
		defer c.Close()
		run(b, c, func() {}, true)
	})
	b.Run("rearm", func(b *testing.B) {
		c := catalog(WithWatch())
		defer c.Close()
		run(b, c, func() { os.Chtimes(project, old, old) }, false)
	})
}
