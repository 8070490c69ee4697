//go:build linux

package memory

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestWatchedCatalogMatchesFreshScan is the watch's freshness guarantee
// as a property: after any sequence of writes, renames, removals, new and
// removed directories, symlink swaps and replaced roots, each followed by a
// query, the watched catalog's Scan equals a scan by a fresh catalog; and a
// query with nothing changed since the previous one is answered by the
// watch whenever the tree holds no symlink and the catalog held its watch
// before the query.
//
// The kernel may refuse a watch: inotify instances are a per-user limit
// (128 by default) shared with every other process of the user, and a
// refused watch is the documented fallback, not a defect. The catalog's
// kernel calls go through refusalCounter, so a query after a refused
// instance is counted and a watch the catalog dropped on its own still
// fails; the test also fails unless some query was vouched for, and skips
// only when the kernel refused every watch it asked for.
func TestWatchedCatalogMatchesFreshScan(t *testing.T) {
	t.Parallel() // mostly file-system calls: overlaps the other tests well
	vouched, refused := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		base := t.TempDir()
		defer os.RemoveAll(base)
		proj, user := filepath.Join(base, "project"), filepath.Join(base, "user")
		for _, r := range []string{proj, user} {
			if err := os.MkdirAll(r, 0o755); err != nil {
				rt.Fatal(err)
			}
		}
		roots := Roots{Project: proj, User: user}
		kernel := &refusalCounter{}
		c := NewCatalog(roots, withInotify(kernel))
		defer c.Close()

		files := []string{"a.md", "b.md", "sub/c.md", "sub/deeper/d.md", "other/e.md", "MEMORY.md", "notes.txt", ".hidden.md", "sub/.x/f.md"}
		dirs := []string{"sub", "sub/deeper", "other", "sub/.x"}
		contents := []string{
			topic("user", "One", "first body"),
			topic("user", "Two", "other body"), // same size as One
			topic("feedback", "Three", "a longer body than the others"),
			"---\ntype: nonsense\n---\n",
			"no frontmatter at all",
		}
		root := func(rt *rapid.T) string {
			return rapid.SampledFrom([]string{proj, user}).Draw(rt, "root")
		}
		file := func(rt *rapid.T, r string, label string) string {
			return filepath.Join(r, filepath.FromSlash(rapid.SampledFrom(files).Draw(rt, label)))
		}
		dir := func(rt *rapid.T, r string, label string) string {
			return filepath.Join(r, filepath.FromSlash(rapid.SampledFrom(dirs).Draw(rt, label)))
		}
		changed := true // since the last query
		query := func(rt *rapid.T) {
			held := c.Watching()
			refusedLast := kernel.lastRefused
			got, err := c.Scan(context.Background())
			if err != nil {
				rt.Fatal(err)
			}
			fresh, err := Scan(context.Background(), roots)
			if err != nil {
				rt.Fatal(err)
			}
			if diff := cmp.Diff(snap(fresh), snap(got)); diff != "" {
				rt.Fatalf("watched catalog differs from a fresh scan (-fresh +catalog):\n%s", diff)
			}
			if !changed && !hasSymlink(base) {
				switch {
				case !held && refusedLast:
					refused++
				case !held:
					rt.Fatalf("nothing changed and the kernel gave the last watch, but the catalog no longer held it")
				case !got.Stats.Watched:
					rt.Fatalf("nothing changed, no symlink and the watch held, but the scan was not answered by the watch")
				default:
					vouched++
				}
			}
			changed = false
		}
		act := func(f func(rt *rapid.T)) func(rt *rapid.T) {
			return func(rt *rapid.T) {
				f(rt)
				changed = true
				query(rt)
			}
		}
		rt.Repeat(map[string]func(*rapid.T){
			"write": act(func(rt *rapid.T) {
				p := file(rt, root(rt), "path")
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(rapid.SampledFrom(contents).Draw(rt, "content")), 0o644)
			}),
			"rename": act(func(rt *rapid.T) {
				from, to := file(rt, root(rt), "from"), file(rt, root(rt), "to")
				os.MkdirAll(filepath.Dir(to), 0o755)
				os.Rename(from, to)
			}),
			"remove": act(func(rt *rapid.T) { os.Remove(file(rt, root(rt), "path")) }),
			"mkdir":  act(func(rt *rapid.T) { os.MkdirAll(dir(rt, root(rt), "dir"), 0o755) }),
			"rmdir":  act(func(rt *rapid.T) { os.RemoveAll(dir(rt, root(rt), "dir")) }),
			"renameDir": act(func(rt *rapid.T) {
				r := root(rt)
				from, to := dir(rt, r, "from"), dir(rt, r, "to")
				os.Rename(from, to)
			}),
			"symlink": act(func(rt *rapid.T) {
				// Put a link where a file or directory may be, to a file or
				// directory of either root (replacing what was there).
				var at, target string
				if rapid.Bool().Draw(rt, "linkDir") {
					at, target = dir(rt, root(rt), "at"), dir(rt, root(rt), "target")
				} else {
					at, target = file(rt, root(rt), "at"), file(rt, root(rt), "target")
				}
				os.RemoveAll(at)
				os.MkdirAll(filepath.Dir(at), 0o755)
				os.Symlink(target, at)
			}),
			"unlink": act(func(rt *rapid.T) {
				// Remove every symlink, so the watch can vouch again.
				filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
					if err == nil && d.Type()&fs.ModeSymlink != 0 {
						os.Remove(p)
					}
					return nil
				})
			}),
			"replaceRoot": act(func(rt *rapid.T) {
				r := root(rt)
				os.RemoveAll(r + ".old")
				os.Rename(r, r+".old")
				if rapid.Bool().Draw(rt, "recreate") {
					os.MkdirAll(r, 0o755)
					os.WriteFile(filepath.Join(r, "a.md"), []byte(rapid.SampledFrom(contents).Draw(rt, "content")), 0o644)
				}
			}),
			"query": query,
		})
	})
	switch {
	case vouched > 0:
	case refused > 0:
		t.Skipf("the kernel refused every inotify watch asked for (%d unchanged-tree queries); the per-user instance limit is exhausted", refused)
	default:
		t.Fatal("no query with nothing changed was drawn: the watch's answer was never checked")
	}
}

// hasSymlink reports a symlink anywhere below dir.
func hasSymlink(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			found = true
		}
		return nil
	})
	return found
}

// refusalCounter is the real kernel, noting whether the last inotify
// instance asked for was refused (EMFILE at the per-user limit).
type refusalCounter struct {
	kernelInotify
	lastRefused bool
}

func (k *refusalCounter) init() (int, error) {
	fd, err := k.kernelInotify.init()
	k.lastRefused = err != nil
	return fd, err
}
