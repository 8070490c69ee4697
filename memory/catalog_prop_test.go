package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// snapshot is what a scan promises, without pointers: it must be the same
// for the catalog and for a fresh scan of the same tree.
type snapshot struct {
	Docs    []string
	Skipped string
}

func snap(res Result) snapshot {
	s := snapshot{Skipped: res.Skipped.String()}
	for _, d := range res.Docs {
		s.Docs = append(s.Docs, fmt.Sprintf("%s %s %s %q %q %q %v %s %d",
			d.Scope, d.RelPath, d.Type, d.Title, d.Description, d.Body, d.BodyTruncated, d.Modified.UTC().Format(time.RFC3339Nano), d.Size))
	}
	return s
}

// TestCatalogMatchesFreshScan is the catalog's freshness guarantee as a
// property: after any sequence of adds, edits, removals and scans, the
// catalog's Scan equals a scan with a fresh catalog, and a file the
// sequence did not touch since the previous catalog scan keeps its pointer.
//
// Two variants: with the default racy window, edits may keep the size and
// put the mtime back (the racy case); with the window off, every write gets
// a new mtime, so unchanged files are answered from their stat alone.
func TestCatalogMatchesFreshScan(t *testing.T) {
	// The variants write separate trees and spend most of their time in
	// file-system calls, so they overlap well even on two cores.
	t.Run("racy window", func(t *testing.T) { t.Parallel(); checkCatalogMatchesFreshScan(t, true) })
	t.Run("stat only", func(t *testing.T) { t.Parallel(); checkCatalogMatchesFreshScan(t, false) })
}

func checkCatalogMatchesFreshScan(t *testing.T, racy bool) {
	rapid.Check(t, func(rt *rapid.T) {
		proj, user := t.TempDir(), t.TempDir()
		defer os.RemoveAll(proj)
		defer os.RemoveAll(user)
		roots := Roots{Project: proj, User: user}
		c := NewCatalog(roots)
		if !racy {
			c.racyWindow = 0
		}
		tick := 0
		names := []string{"a.md", "b.md", "sub/c.md", "sub/deeper/d.md", "MEMORY.md"}
		contents := []string{
			topic("user", "One", "first body"),
			topic("user", "Two", "other body"), // same size as One
			topic("feedback", "Three", "a longer body than the others"),
			"---\ntype: nonsense\n---\n",
			"no frontmatter at all",
		}
		touched := map[string]bool{}
		var prev map[string]*Document
		path := func(rt *rapid.T) string {
			root := rapid.SampledFrom([]string{proj, user}).Draw(rt, "root")
			return filepath.Join(root, filepath.FromSlash(rapid.SampledFrom(names).Draw(rt, "name")))
		}
		rt.Repeat(map[string]func(*rapid.T){
			"write": func(rt *rapid.T) {
				p := path(rt)
				body := rapid.SampledFrom(contents).Draw(rt, "content")
				keepMtime := racy && rapid.Bool().Draw(rt, "keepMtime")
				old, statErr := os.Stat(p)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					rt.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					rt.Fatal(err)
				}
				mt := base.Add(time.Duration(tick) * time.Second)
				tick++
				if keepMtime && statErr == nil {
					mt = old.ModTime()
				}
				if err := os.Chtimes(p, mt, mt); err != nil {
					rt.Fatal(err)
				}
				touched[p] = true
			},
			"remove": func(rt *rapid.T) {
				p := path(rt)
				os.Remove(p)
				touched[p] = true
			},
			"scan": func(rt *rapid.T) {
				got, err := c.Scan(context.Background())
				if err != nil {
					rt.Fatal(err)
				}
				if !racy && got.Stats.Read > len(touched) {
					rt.Fatalf("read %d files, but only %d were touched", got.Stats.Read, len(touched))
				}
				fresh, err := Scan(context.Background(), roots)
				if err != nil {
					rt.Fatal(err)
				}
				if diff := cmp.Diff(snap(fresh), snap(got)); diff != "" {
					rt.Fatalf("catalog differs from a fresh scan (-fresh +catalog):\n%s", diff)
				}
				now := map[string]*Document{}
				for _, d := range got.Docs {
					now[string(d.ID)] = d
					if old, ok := prev[string(d.ID)]; ok && !touched[string(d.ID)] && old != d {
						rt.Fatalf("%s was not touched but got a new pointer", d.RelPath)
					}
				}
				prev, touched = now, map[string]bool{}
			},
		})
	})
}
