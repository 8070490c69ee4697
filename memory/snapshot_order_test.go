package memory

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// snapRec is what a test compares of a snapshot record.
type snapRec struct {
	Path    string
	Scope   Scope
	Skipped bool
	Skip    SkipReason
	Doc     *Document
	Key     fileKey
}

func viewRecs(recs []snapRecord) []snapRec {
	var out []snapRec
	for _, r := range recs {
		out = append(out, snapRec{r.path, r.scope, r.skipped, r.skip, r.doc, r.key})
	}
	return out
}

// cacheRecords is what a snapshot of c's cache holds, in the stored order,
// taken from the cache's entries (the way the writer took them before
// decision 0805's amendment): every entry but the racy ones and the files
// skipped for an I/O error, the documents in the result's order
// (compareDocs), then the skipped files by path.
func cacheRecords(c *Catalog) []snapRec {
	var docs, skipped []snapRec
	for sc, m := range c.cache {
		for _, e := range m {
			r := snapRec{e.path, Scope(sc), e.skipped, e.skip, e.doc, e.key}
			switch {
			case e.racy:
			case !e.skipped:
				docs = append(docs, r)
			case e.skip >= SkipBinary:
				skipped = append(skipped, r)
			}
		}
	}
	slices.SortFunc(docs, func(a, b snapRec) int { return compareDocs(a.Doc, b.Doc) })
	slices.SortFunc(skipped, func(a, b snapRec) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Scope, b.Scope))
	})
	return append(docs, skipped...)
}

// heldWriter makes c's scans queue their snapshot without starting the
// writer, as when a write is under way: the test takes the queued source
// (takeQueued) and turns it into records itself.
func heldWriter(c *Catalog) {
	c.snap.mu.Lock()
	c.snap.writing = true
	c.snap.mu.Unlock()
}

// takeQueued returns the source the last scan queued and clears it; nil
// if no scan queued one since the last call.
func takeQueued(c *Catalog) *snapSource {
	c.snap.mu.Lock()
	defer c.snap.mu.Unlock()
	src := c.snap.pending
	c.snap.pending = nil
	return src
}

// TestPropSnapshotRecordsInResultOrder: the records the writer makes from
// a scan's jobs and outcomes (snapSource.records) are exactly the cache's
// entries after that scan, racy files and files skipped for an I/O error
// left out, the documents in the scan's result order, then the skipped
// files by path. Trees with equal mtimes, skipped files of both kinds,
// racy files and removals.
func TestPropSnapshotRecordsInResultOrder(t *testing.T) {
	t.Parallel() // file writes: overlap them with the other tests
	rapid.Check(t, func(rt *rapid.T) {
		proj, user := t.TempDir(), t.TempDir()
		defer os.RemoveAll(proj)
		defer os.RemoveAll(user)
		// The writer is held: nothing is written (with its fsync) on
		// every scan; the test makes the records from the queued source.
		c := NewCatalog(Roots{Project: proj, User: user}, WithSnapshot(filepath.Join(proj, "never.snap"), "v1", nil))
		defer c.Close()
		heldWriter(c)
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
				res, err := c.Scan(context.Background())
				if err != nil {
					rt.Fatal(err)
				}
				src := takeQueued(c)
				if src == nil {
					return // nothing changed: nothing to write
				}
				got := src.records()
				if d := gocmp.Diff(cacheRecords(c), viewRecs(got), gocmp.AllowUnexported(fileKey{})); d != "" {
					rt.Fatalf("records (-cache +written):\n%s", d)
				}
				// The documents stored are the result's, in its order,
				// but for the racy ones.
				var stored, result []*Document
				for i := range got {
					if !got[i].skipped {
						stored = append(stored, got[i].doc)
					}
				}
				for _, d := range res.Docs {
					if e := c.cache[d.Scope][string(d.ID)]; !e.racy {
						result = append(result, d)
					}
				}
				if d := gocmp.Diff(result, stored); d != "" {
					rt.Fatalf("stored documents (-result +stored):\n%s", d)
				}
			},
		})
	})
}

// TestSnapshotWriteIgnoresLaterScan: a scan that runs while the writer
// makes its records from an earlier scan's source (changing, adding and
// removing files, so rewriting the cache's entries and maps) does not
// change what the writer stores: the earlier scan's files. Run with -race:
// the writer and the later scan share no memory they write.
func TestSnapshotWriteIgnoresLaterScan(t *testing.T) {
	roots := snapTree(t)
	writeFile(t, roots.Project, "d.md", topic("user", "Delta", "will change"), 5*time.Hour)
	writeFile(t, roots.Project, "gone.md", topic("user", "Gone", "will go"), 6*time.Hour)
	c := snapCatalog(roots, filepath.Join(t.TempDir(), "x.snap"), "v1")
	defer c.Close()
	heldWriter(c)
	// Two scans: the second revalidates entries the first made, so its
	// jobs point at the cache's entries, as a daemon's scans do.
	if _, err := c.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	takeQueued(c)
	writeFile(t, roots.Project, "d.md", topic("user", "Delta", "changed once"), 4*time.Minute)
	if _, err := c.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	src := takeQueued(c)
	if src == nil {
		t.Fatal("a scan that saw a change queued no snapshot")
	}
	want := cacheRecords(c)

	writeFile(t, roots.Project, "d.md", topic("user", "Delta", "changed twice"), time.Minute)
	writeFile(t, roots.Project, "new.md", topic("user", "New", "added"), time.Minute)
	if err := os.Remove(filepath.Join(roots.Project, "gone.md")); err != nil {
		t.Fatal(err)
	}
	done := make(chan []snapRecord)
	go func() { done <- src.records() }()
	if _, err := c.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if d := gocmp.Diff(want, viewRecs(got), gocmp.AllowUnexported(fileKey{})); d != "" {
		t.Errorf("records of the first scan (-before the second scan +written):\n%s", d)
	}
	if later := takeQueued(c); later == nil || gocmp.Equal(want, viewRecs(later.records()), gocmp.AllowUnexported(fileKey{})) {
		t.Errorf("the second scan queued no snapshot of its own changes")
	}
}
