package memory

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestPropSnapshotRecordsInResultOrder: the records queueSnapshot queues,
// taken in the order of the scan's sorted result, are sorted as the writer
// stores them (so it does not sort them again), and are exactly the
// records, in the same order, that sorting the cache's entries gives (what
// the writer wrote before). Trees with equal mtimes, skipped files of both
// kinds, racy files and removals.
func TestPropSnapshotRecordsInResultOrder(t *testing.T) {
	t.Parallel() // file writes: overlap them with the other tests
	type rec struct {
		Path    string
		Skipped bool
		Skip    SkipReason
		Doc     *Document
		Key     fileKey
	}
	view := func(recs []snapRecord) []rec {
		var out []rec
		for _, r := range recs {
			out = append(out, rec{r.path, r.skipped, r.skip, r.doc, r.key})
		}
		return out
	}
	rapid.Check(t, func(rt *rapid.T) {
		proj, user := t.TempDir(), t.TempDir()
		defer os.RemoveAll(proj)
		defer os.RemoveAll(user)
		// No snapshot file: snapshotRecords reads the cache and the
		// sorted result alone, and writing (with its fsync) on every
		// scan would only slow the property down.
		c := NewCatalog(Roots{Project: proj, User: user})
		defer c.Close()
		if rapid.Bool().Draw(rt, "noRacyWindow") {
			c.racyWindow = 0
		}
		names := []string{"a.md", "b.md", "sub/c.md", "sub/d.md", "e.md"}
		contents := []string{
			topic("user", "One", "first body"),
			topic("feedback", "Two", "other body"),
			"no frontmatter",        // skipped for its content
			"bin\x00ary\x00content", // skipped for its content
			"---\ntype: nonsense\n---\n",
		}
		rt.Repeat(map[string]func(*rapid.T){
			"write": func(rt *rapid.T) {
				root := rapid.SampledFrom([]string{proj, user}).Draw(rt, "root")
				p := filepath.Join(root, filepath.FromSlash(rapid.SampledFrom(names).Draw(rt, "name")))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					rt.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(rapid.SampledFrom(contents).Draw(rt, "content")), 0o644); err != nil {
					rt.Fatal(err)
				}
				if rapid.Bool().Draw(rt, "now") {
					return // racy if the window is on
				}
				mt := base.Add(time.Duration(rapid.IntRange(0, 2).Draw(rt, "mtime")) * time.Hour) // ties
				if err := os.Chtimes(p, mt, mt); err != nil {
					rt.Fatal(err)
				}
			},
			"remove": func(rt *rapid.T) {
				root := rapid.SampledFrom([]string{proj, user}).Draw(rt, "root")
				os.Remove(filepath.Join(root, filepath.FromSlash(rapid.SampledFrom(names).Draw(rt, "name"))))
			},
			"scan": func(rt *rapid.T) {
				if _, err := c.Scan(context.Background()); err != nil {
					rt.Fatal(err)
				}
				got := c.snapshotRecords()
				if !slices.IsSortedFunc(got, compareSnapRecords) {
					rt.Fatalf("records not in the stored order: %v", view(got))
				}
				// What the writer stored before: the cache's entries in
				// map order, sorted.
				var want []snapRecord
				for sc, m := range c.cache {
					for _, e := range m {
						switch {
						case e.racy:
						case !e.skipped:
							want = append(want, docRecord(Scope(sc), e))
						case e.skip >= SkipBinary:
							want = append(want, skippedRecord(Scope(sc), e))
						}
					}
				}
				sortSnapRecords(want)
				if d := cmp.Diff(view(want), view(got), cmp.AllowUnexported(fileKey{})); d != "" {
					rt.Fatalf("records (-sorted cache +queued):\n%s", d)
				}
			},
		})
	})
}
