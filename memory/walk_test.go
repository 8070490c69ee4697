package memory

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestRootPaths checks the walk's three path helpers on one table, the
// file system's root "/" among them: joining a name onto a directory must
// spell the path as filepath.EvalSymlinks does (the visited set and the
// loop check compare against its answers), and cutting the root off must
// give the same slash path whether the directory was reached by listing
// or through a link.
func TestRootPaths(t *testing.T) {
	type row struct {
		Root, Dir, Name string
		Join, Below     string // joinPath(Dir, Name), belowRoot(Root, Join)
		DirBelow        string // belowRoot(Root, Dir)
		Within          bool   // within(Root, Join)
	}
	p := filepath.FromSlash
	rows := []row{
		{Root: p("/"), Dir: p("/"), Name: "a.md", Join: p("/a.md"), Below: "a.md", DirBelow: "", Within: true},
		{Root: p("/"), Dir: p("/sub"), Name: "a.md", Join: p("/sub/a.md"), Below: "sub/a.md", DirBelow: "sub", Within: true},
		{Root: p("/"), Dir: p("/sub/deeper"), Name: "x", Join: p("/sub/deeper/x"), Below: "sub/deeper/x", DirBelow: "sub/deeper", Within: true},
		{Root: p("/m"), Dir: p("/m"), Name: "a.md", Join: p("/m/a.md"), Below: "a.md", DirBelow: "", Within: true},
		{Root: p("/m"), Dir: p("/m/sub"), Name: "a.md", Join: p("/m/sub/a.md"), Below: "sub/a.md", DirBelow: "sub", Within: true},
		// A sibling whose name starts with the root's is not below it.
		{Root: p("/m"), Dir: p("/mx"), Name: "a.md", Join: p("/mx/a.md"), Below: "", DirBelow: "", Within: false},
	}
	for _, r := range rows {
		got := row{Root: r.Root, Dir: r.Dir, Name: r.Name, Join: joinPath(r.Dir, r.Name)}
		got.Within = within(r.Root, got.Join)
		if got.Within {
			got.Below = belowRoot(r.Root, got.Join)
			got.DirBelow = belowRoot(r.Root, r.Dir)
		}
		if diff := cmp.Diff(r, got); diff != "" {
			t.Errorf("root %q dir %q name %q (-want +got):\n%s", r.Root, r.Dir, r.Name, diff)
		}
		if want := filepath.Join(r.Dir, r.Name); got.Join != want {
			t.Errorf("joinPath(%q, %q) = %q, filepath.Join gives %q", r.Dir, r.Name, got.Join, want)
		}
		if got.Within && got.DirBelow != "" && got.Below != got.DirBelow+"/"+r.Name {
			t.Errorf("root %q: file below %q is not its directory's %q plus %q", r.Root, got.Below, got.DirBelow, r.Name)
		}
	}
}

// TestScanPastOpenDirBound reads topics in more directories than the walk
// keeps open, so the later ones are opened below the root by path: those
// of directories reached by listing (their path below the root is their
// rel) and of one reached only through a link (it is not). A second scan
// through the catalog takes the cached entries' way, and a file changed
// between the scans must be read again from the right place.
func TestScanPastOpenDirBound(t *testing.T) {
	root := t.TempDir()
	var want []docView
	for i := range maxOpenDirs + 3 {
		rel := fmt.Sprintf("d%03d/t.md", i)
		name := fmt.Sprintf("T%03d", i)
		writeFile(t, root, rel, topic("project", name, name), time.Duration(-i)*time.Minute)
		want = append(want, docView{"project", rel, "project", name})
	}
	// Hidden, so the walk enters it only through the link, after every
	// listed directory has taken its descriptor.
	writeFile(t, root, ".real/t.md", topic("project", "Linked", "l"), -time.Hour*24)
	symlink(t, filepath.Join(root, ".real"), filepath.Join(root, "zlink"))
	want = append(want, docView{"project", "zlink/t.md", "project", "Linked"})

	// No racy window: the files were just written, and the second scan
	// must trust their stats.
	cat := NewCatalog(Roots{Project: root}, WithRacyWindow(0))
	stats := &atomic.Int64{}
	cat.fsys = hookFS{inner: cat.fsys, stats: stats}
	scan := func(want []docView) Result {
		t.Helper()
		res, err := cat.Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, view(res.Docs)); diff != "" {
			t.Errorf("docs (-want +got):\n%s", diff)
		}
		if res.Skipped != (SkipCounts{}) {
			t.Errorf("skipped = %v, want none", res.Skipped)
		}
		return res
	}
	scan(want)
	// Every file is new to the first scan and read: a stat of it, by the
	// walk or a worker, would be wasted.
	if n := stats.Load(); n != 0 {
		t.Errorf("first scan stat %d files, want 0", n)
	}
	// Unchanged: every file is answered from its stat, those past the
	// bound included (the walk stats them through their directory).
	if res := scan(want); res.Stats.Read != 0 {
		t.Errorf("second scan read %d files, want 0", res.Stats.Read)
	}
	last := len(want) - 2 // the last listed directory: past the bound
	writeFile(t, root, want[last].RelPath, topic("project", "Changed", "c"), time.Duration(-last)*time.Minute)
	writeFile(t, root, ".real/t.md", topic("project", "Linked again", "l"), -time.Hour*24)
	want[last].Title, want[len(want)-1].Title = "Changed", "Linked again"
	scan(want)
}

// TestPropRelOf: relOf is the relative path joined from rel and name,
// whatever path it may cut it from.
func TestPropRelOf(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seg := rapid.StringMatching(`[a-z/.]{0,6}`)
		root, rel, name := seg.Draw(t, "root"), seg.Draw(t, "rel"), rapid.StringMatching(`[a-z.]{1,6}`).Draw(t, "name")
		want := name
		if rel != "" {
			want = rel + "/" + name
		}
		// The path as the walk builds it, and arbitrary ones.
		for _, path := range []string{root + "/" + want, root + want, seg.Draw(t, "other") + name, name} {
			if got := relOf(path, rel, name); got != want {
				t.Fatalf("relOf(%q, %q, %q) = %q, want %q", path, rel, name, got, want)
			}
		}
	})
}

// TestKeepPath: the paths a first walk keeps in its directory's block equal
// their bytes at the time of the call, do not share the caller's buffer,
// and stay so as the block fills and when a path no longer fits (a copy of
// its own); without a block every path is a copy.
func TestKeepPath(t *testing.T) {
	for _, room := range []int{0, 9, 10, 64} {
		w := walker{names: make([]byte, 0, room)}
		src := make([]byte, 0, 16)
		var got, want []string
		for _, p := range []string{"/a/b.md", "/c.md", "", "/d/e/f.md", "/g.md"} {
			src = append(src[:0], p...)
			want = append(want, p)
			got = append(got, w.keepPath(src))
			for i := range src {
				src[i] = '#' // the walk reuses its key buffer
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("room %d: kept paths changed (-want +got):\n%s", room, diff)
		}
		if len(w.names) > room {
			t.Errorf("room %d: the block grew to %d bytes", room, len(w.names))
		}
	}
}
