package memory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingCatalog returns a catalog of root whose reads are counted and
// whose racy window is off, so an unchanged file is never re-read.
func countingCatalog(root string) (*Catalog, *atomic.Int64) {
	c := NewCatalog(Roots{Project: root})
	reads := &atomic.Int64{}
	c.fsys = hookFS{inner: c.fsys, reads: reads}
	c.racyWindow = 0
	return c, reads
}

func mustScan(t *testing.T, c *Catalog) Result {
	t.Helper()
	res, err := c.Scan(context.Background())
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return res
}

func byRel(docs []*Document) map[string]*Document {
	m := map[string]*Document{}
	for _, d := range docs {
		m[d.RelPath] = d
	}
	return m
}

func TestCatalogUnchangedTreeIsNotReRead(t *testing.T) {
	root := t.TempDir()
	for i, name := range []string{"a.md", "b.md", "sub/c.md"} {
		writeFile(t, root, name, topic("user", name, "body"), time.Duration(i)*time.Minute)
	}
	writeFile(t, root, "bad.md", "no frontmatter", 0)
	c, reads := countingCatalog(root)
	first := mustScan(t, c)
	if reads.Load() != 4 || first.Stats.Read != 4 {
		t.Fatalf("cold scan read %d files (stats %d), want 4", reads.Load(), first.Stats.Read)
	}
	second := mustScan(t, c)
	if reads.Load() != 4 || second.Stats.Read != 0 || second.Stats.Reused != 4 {
		t.Errorf("warm scan: %d reads, stats %+v; want no reads, 4 reused", reads.Load()-4, second.Stats)
	}
	if len(second.Docs) != 3 || second.Skipped != skips(SkipNoFrontmatter, 1) {
		t.Fatalf("warm scan docs %v skipped %v", view(second.Docs), second.Skipped)
	}
	for i := range first.Docs {
		if first.Docs[i] != second.Docs[i] {
			t.Errorf("doc %d: pointer changed for an unchanged file", i)
		}
	}
	// The result slice belongs to the caller.
	second.Docs[0] = nil
	if third := mustScan(t, c); third.Docs[0] == nil {
		t.Error("a caller's write to Result.Docs leaked into the catalog")
	}
}

func TestCatalogSeesChanges(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "keep.md", topic("user", "Keep", "k"), 0)
	writeFile(t, root, "edit.md", topic("user", "Edit", "before"), time.Minute)
	writeFile(t, root, "gone.md", topic("user", "Gone", "g"), 2*time.Minute)
	c, _ := countingCatalog(root)
	before := byRel(mustScan(t, c).Docs)

	writeFile(t, root, "edit.md", topic("user", "Edit", "after, longer"), time.Minute)
	writeFile(t, root, "new/added.md", topic("project", "Added", "a"), 3*time.Minute)
	if err := os.Remove(filepath.Join(root, "gone.md")); err != nil {
		t.Fatal(err)
	}
	res := mustScan(t, c)
	after := byRel(res.Docs)
	if res.Stats.Read != 2 || res.Stats.Reused != 1 {
		t.Errorf("stats %+v, want 2 read (edit, added) and 1 reused", res.Stats)
	}
	if after["keep.md"] != before["keep.md"] {
		t.Error("unchanged file got a new pointer")
	}
	if d := after["edit.md"]; d == before["edit.md"] || d.Body != "after, longer" {
		t.Errorf("edited file not re-read: %+v", d)
	}
	if after["new/added.md"] == nil {
		t.Error("added file not seen")
	}
	if _, ok := after["gone.md"]; ok {
		t.Error("removed file still listed")
	}
	if got := view(res.Docs)[0].RelPath; got != "new/added.md" {
		t.Errorf("order not refreshed: first is %q", got)
	}
}

// TestCatalogRacyRewrite is the freshness guarantee's hard case: a rewrite
// of the same size, with the mtime put back, right after a scan read the
// file. On a file system with coarse timestamps and no ctime (simulated:
// FAT keeps 2 s, no inode) its stat is identical; the racy window makes
// the next scan read it anyway.
func TestCatalogRacyRewrite(t *testing.T) {
	for _, coarse := range []bool{false, true} {
		t.Run(fmt.Sprintf("coarse=%v", coarse), func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, "a.md")
			if err := os.WriteFile(p, []byte(topic("user", "A", "version 1")), 0o644); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			c := NewCatalog(Roots{Project: root})
			if coarse {
				c.fsys = coarseFS{c.fsys}
			}
			mustScan(t, c)
			if err := os.WriteFile(p, []byte(topic("user", "A", "version 2")), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
			second := mustScan(t, c)
			if second.Docs[0].Body != "version 2" {
				t.Fatalf("same-size rewrite missed: body %q", second.Docs[0].Body)
			}
			// Re-reading a racy file that did not change keeps its pointer.
			third := mustScan(t, c)
			if third.Docs[0] != second.Docs[0] {
				t.Error("racy re-read of an unchanged file replaced its pointer")
			}
		})
	}
}

// coarseFS reports stats the way a FAT volume would: mtime in 2 s steps,
// no ctime, no inode.
type coarseFS struct{ inner fileSystem }

func coarsen(k fileKey) fileKey {
	k.mtime -= k.mtime % int64(2*time.Second)
	k.ctime, k.ino, k.dev = 0, 0, 0
	return k
}

func (c coarseFS) stat(path string, at fileAt) (fileKey, error) {
	k, err := c.inner.stat(path, at)
	return coarsen(k), err
}

func (c coarseFS) readPrefix(path string, at fileAt, buf []byte) (int, fileKey, error) {
	n, k, err := c.inner.readPrefix(path, at, buf)
	return n, coarsen(k), err
}

func TestCatalogNotRacyAfterWindow(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", topic("user", "A", "a"), 0) // mtime in the past
	c, reads := countingCatalog(root)
	c.racyWindow = RacyWindow
	// ctime is now: pretend the scans happen a minute later.
	c.now = func() time.Time { return time.Now().Add(time.Minute) }
	mustScan(t, c)
	mustScan(t, c)
	if reads.Load() != 1 {
		t.Errorf("%d reads, want 1: a file older than the racy window is trusted", reads.Load())
	}
}

func TestCatalogWarmThenScanDoesNotDuplicateWork(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a.md", "b.md", "c.md"} {
		writeFile(t, root, name, topic("user", name, "x"), 0)
	}
	c, reads := countingCatalog(root)
	c.Warm()
	c.Warm()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if res, err := c.Scan(context.Background()); err != nil || len(res.Docs) != 3 {
				t.Errorf("Scan: %d docs, %v", len(res.Docs), err)
			}
		})
	}
	wg.Wait()
	if reads.Load() != 3 {
		t.Errorf("%d reads, want 3: warm-up and scans must share the work", reads.Load())
	}
	if last, ok := c.Last(); !ok || len(last.Docs) != 3 {
		t.Errorf("Last = %d docs, %v", len(last.Docs), ok)
	}
}

func TestCatalogScanCancelled(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", topic("user", "A", "a"), 0)
	release := make(chan struct{})
	c := NewCatalog(Roots{Project: root})
	c.fsys = hookFS{inner: c.fsys, before: func(string) { <-release }}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Scan(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if _, ok := c.Last(); ok {
		t.Error("Last reports a result before any scan completed")
	}
	close(release)
	// The abandoned scan still completes; the next Scan gets the document.
	if res := mustScan(t, c); len(res.Docs) != 1 {
		t.Errorf("after cancel: %d docs", len(res.Docs))
	}
}
