package memory

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// snapCatalog is a catalog with a snapshot file in a test directory (tests
// never touch the real cache directory) and the racy window off, so files
// written with explicit past mtimes are trusted from their stat.
func snapCatalog(roots Roots, file, tag string) *Catalog {
	c := NewCatalog(roots, WithSnapshot(file, tag, nil))
	c.racyWindow = 0
	return c
}

// snapTree writes a small tree and returns its roots.
func snapTree(t *testing.T) Roots {
	proj, user := t.TempDir(), t.TempDir()
	writeFile(t, proj, "a.md", topic("user", "Alpha", "deploy the server"), time.Hour)
	writeFile(t, proj, "sub/b.md", topic("feedback", "Beta", "部署の手順"), 2*time.Hour)
	writeFile(t, user, "c.md", topic("project", "Gamma", "сервер"), 3*time.Hour)
	writeFile(t, user, "bad.md", "no frontmatter", 4*time.Hour)
	return Roots{Project: proj, User: user}
}

// scanCat scans and waits for the snapshot write the scan may have
// started, so that no write outlives the test's temporary directories.
func scanCat(t *testing.T, c *Catalog) Result {
	t.Helper()
	res, err := c.Scan(context.Background())
	c.WaitSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestSnapshotRoundTrip(t *testing.T) {
	roots := snapTree(t)
	file := filepath.Join(t.TempDir(), "cache", "x.snap")
	first := snapCatalog(roots, file, "v1")
	want := scanCat(t, first)
	first.WaitSnapshot()
	if got := first.SnapshotStats(); got != (SnapshotStats{Missing: 1, Written: 1}) {
		t.Fatalf("first catalog's stats: %+v", got)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.Stat(filepath.Dir(file))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v, dir %v; want 0600, 0700", fi.Mode().Perm(), di.Mode().Perm())
	}

	second := snapCatalog(roots, file, "v1")
	got := scanCat(t, second)
	second.WaitSnapshot()
	if diff := cmp.Diff(snap(want), snap(got)); diff != "" {
		t.Errorf("scan seeded from the snapshot differs (-fresh +seeded):\n%s", diff)
	}
	// The bad file is in the snapshot as skipped for its content: no
	// file is read again, and nothing is written.
	if got.Stats.Read != 0 || got.Stats.Reused != 4 {
		t.Errorf("read %d, reused %d; want 0, 4", got.Stats.Read, got.Stats.Reused)
	}
	if st := second.SnapshotStats(); st.Loaded != 3 || st.Ignored != 0 || st.Written != 0 {
		t.Errorf("second catalog's stats: %+v", st)
	}
}

func TestSnapshotChangedAndRemovedFiles(t *testing.T) {
	roots := snapTree(t)
	file := filepath.Join(t.TempDir(), "x.snap")
	first := snapCatalog(roots, file, "v1")
	scanCat(t, first)
	first.WaitSnapshot()

	// Same size, new mtime; and a removal; and an addition.
	writeFile(t, roots.Project, "a.md", topic("user", "Alpha", "deploy the SERVER"), 30*time.Minute)
	if err := os.Remove(filepath.Join(roots.User, "c.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, roots.User, "d.md", topic("reference", "Delta", "new"), time.Minute)

	got := scanCat(t, snapCatalog(roots, file, "v1"))
	fresh := scanRoots(t, roots)
	if diff := cmp.Diff(snap(fresh), snap(got)); diff != "" {
		t.Errorf("seeded scan differs from a fresh scan (-fresh +seeded):\n%s", diff)
	}
	if got.Stats.Read != 2 { // a.md changed, d.md new; bad.md trusted as skipped
		t.Errorf("read %d files, want 2", got.Stats.Read)
	}
}

// TestSnapshotIgnored: a snapshot that is corrupt, of another version or
// roots, or unsafe is counted and ignored, and the scan is a fresh one.
func TestSnapshotIgnored(t *testing.T) {
	roots := snapTree(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.snap")
	c := snapCatalog(roots, good, "v1")
	fresh := scanCat(t, c)
	c.WaitSnapshot()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)/2] ^= 0x40
	other := snapTree(t)
	tests := []struct {
		name  string
		data  []byte
		mode  os.FileMode
		tag   string
		roots Roots
	}{
		{"truncated", data[:len(data)-7], 0o600, "v1", roots},
		{"header only", data[:10], 0o600, "v1", roots},
		{"flipped byte", flipped, 0o600, "v1", roots},
		{"other scorer version", data, 0o600, "v2", roots},
		{"other roots", data, 0o600, "v1", other},
		{"readable by others", data, 0o644, "v1", roots},
		{"empty", nil, 0o600, "v1", roots},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "x.snap")
			if err := os.WriteFile(file, tt.data, tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(file, tt.mode); err != nil {
				t.Fatal(err)
			}
			c := snapCatalog(tt.roots, file, tt.tag)
			got := scanCat(t, c)
			c.WaitSnapshot()
			if st := c.SnapshotStats(); st.Ignored != 1 || st.Loaded != 0 || st.Written != 1 {
				t.Errorf("stats %+v, want one ignored, none loaded, one written", st)
			}
			want := fresh
			if tt.roots != roots {
				want = scanRoots(t, tt.roots)
			}
			if diff := cmp.Diff(snap(want), snap(got)); diff != "" {
				t.Errorf("(-fresh +got):\n%s", diff)
			}
			if got.Stats.Reused != 0 {
				t.Errorf("reused %d files from an ignored snapshot", got.Stats.Reused)
			}
		})
	}
}

// TestSnapshotSymlinkRefused: the loader does not follow a symlink put in
// the snapshot's place.
func TestSnapshotSymlinkRefused(t *testing.T) {
	roots := snapTree(t)
	dir := t.TempDir()
	real := filepath.Join(dir, "real.snap")
	c := snapCatalog(roots, real, "v1")
	scanCat(t, c)
	c.WaitSnapshot()
	link := filepath.Join(dir, "link.snap")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	c2 := snapCatalog(roots, link, "v1")
	scanCat(t, c2)
	c2.WaitSnapshot()
	if st := c2.SnapshotStats(); st.Ignored != 1 || st.Loaded != 0 {
		t.Errorf("stats %+v, want the symlink ignored", st)
	}
}

// TestPropSnapshotNeverServesWhatIsNotOnDisk: after any sequence of writes,
// removals, scans and snapshot writes (and damage to the snapshot file), a
// fresh process — a new catalog seeded from the snapshot — scans exactly
// what a scan without snapshot finds: never a document that is not on disk
// now, never an old version of one that is.
func TestPropSnapshotNeverServesWhatIsNotOnDisk(t *testing.T) {
	t.Parallel() // seconds of file writes and fsyncs: overlap them with the other tests
	rapid.Check(t, func(rt *rapid.T) {
		proj, user := t.TempDir(), t.TempDir()
		defer os.RemoveAll(proj)
		defer os.RemoveAll(user)
		roots := Roots{Project: proj, User: user}
		file := filepath.Join(t.TempDir(), "x.snap")
		c := snapCatalog(roots, file, "v")
		names := []string{"a.md", "b.md", "sub/c.md", "MEMORY.md"}
		contents := []string{
			topic("user", "One", "first body"),
			topic("user", "Two", "other body"), // same size as One
			topic("feedback", "Three", "a longer body, 漢字"),
			"---\ntype: nonsense\n---\n",
		}
		tick := 0
		path := func(rt *rapid.T) string {
			root := rapid.SampledFrom([]string{proj, user}).Draw(rt, "root")
			return filepath.Join(root, filepath.FromSlash(rapid.SampledFrom(names).Draw(rt, "name")))
		}
		rt.Repeat(map[string]func(*rapid.T){
			"write": func(rt *rapid.T) {
				p := path(rt)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					rt.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(rapid.SampledFrom(contents).Draw(rt, "content")), 0o644); err != nil {
					rt.Fatal(err)
				}
				mt := base.Add(time.Duration(tick) * time.Second)
				tick++
				if err := os.Chtimes(p, mt, mt); err != nil {
					rt.Fatal(err)
				}
			},
			"remove": func(rt *rapid.T) { os.Remove(path(rt)) },
			"scan": func(rt *rapid.T) {
				if _, err := c.Scan(context.Background()); err != nil {
					rt.Fatal(err)
				}
				c.WaitSnapshot()
			},
			"damage": func(rt *rapid.T) {
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
				fresh := snapCatalog(roots, file, "v")
				got, err := fresh.Scan(context.Background())
				fresh.WaitSnapshot()
				if err != nil {
					rt.Fatal(err)
				}
				want, err := Scan(context.Background(), roots)
				if err != nil {
					rt.Fatal(err)
				}
				if diff := cmp.Diff(snap(want), snap(got)); diff != "" {
					rt.Fatalf("seeded scan differs from a fresh scan (-fresh +seeded):\n%s", diff)
				}
			},
		})
	})
}

// FuzzSnapshotDecode: any bytes decode to an error or to records that
// satisfy the loader's checks and survive an encode and decode unchanged;
// never a panic. The fuzzer's bytes get a correct checksum first, so that
// it explores the decoder rather than the CRC (the checksum itself is
// tested by TestSnapshotIgnored). Seeds: testdata/fuzz/FuzzSnapshotDecode.
func FuzzSnapshotDecode(f *testing.F) {
	roots := [2]string{"/p", "/u"}
	recs := []snapRecord{
		{scope: ScopeProject, path: "/p/a.md", rel: "a.md", key: fileKey{size: 10, mtime: 5, ctime: 6, ino: 7, dev: 8}, typ: TypeUser, title: "t", desc: "d", body: "部署"},
		{scope: ScopeUser, path: "/u/s/b.md", rel: "s/b.md", key: fileKey{size: 1}, typ: TypeReference, truncated: true},
		{scope: ScopeUser, path: "/u/bad.md", rel: "bad.md", key: fileKey{size: 3, ino: 9}, skipped: true, skip: SkipNoFrontmatter},
	}
	f.Add(encodeSnapshot("v", roots, recs, []byte("extra")))
	f.Add(encodeSnapshot("v", roots, nil, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		head := len(snapshotMagic) + 4
		if len(data) >= head {
			binary.LittleEndian.PutUint32(data[len(snapshotMagic):], snapshotSum(data[head:]))
		}
		// The walk's size hint reads an unchecked prefix: it never
		// panics, at any cut, and never claims more files than the bound.
		for _, cut := range []int{0, min(len(data), head), len(data) / 2, min(len(data), snapHeadBytes), len(data)} {
			if n, ok := snapshotFiles(data[:cut], int64(len(data)), "v", roots); ok && (n <= 0 || n > len(data)/minSnapRecord) {
				t.Fatalf("hint %d files from %d of %d bytes", n, cut, len(data))
			}
		}
		// The loader's record loop accepts and decodes what the loop
		// before decision 0841 did.
		checkDecodeAsRef(t, data, "v", roots)
		got, extra, err := decodeSnapshot(data, "v", roots)
		if err != nil {
			return
		}
		if n, ok := snapshotFiles(data, int64(len(data)), "v", roots); ok && n != len(got) {
			t.Fatalf("hint %d files, decoded %d", n, len(got))
		}
		for i := range got {
			if !validSnapRecord(&got[i], roots) {
				t.Fatalf("record %d accepted but invalid: %+v", i, got[i])
			}
		}
		again, extra2, err := decodeSnapshot(encodeSnapshot("v", roots, got, extra), "v", roots)
		if err != nil {
			t.Fatalf("re-encoded records rejected: %v", err)
		}
		if string(extra) != string(extra2) {
			t.Fatalf("extra data %q came back as %q", extra, extra2)
		}
		if diff := cmp.Diff(got, again, cmp.AllowUnexported(snapRecord{}, fileKey{})); diff != "" {
			t.Fatalf("encode and decode changed the records:\n%s", diff)
		}
	})
}

// TestSnapshotFiles: the walk's size hint is the record count of a
// snapshot for these roots and this tag, read from the file's first bytes,
// and nothing for anything else: another tag or roots, a header cut short,
// or a count the file could not hold (decision 0838).
func TestSnapshotFiles(t *testing.T) {
	roots := [2]string{"/p", "/u"}
	recs := make([]snapRecord, 40)
	for i := range recs {
		recs[i] = snapRecord{scope: ScopeProject, rel: fmt.Sprintf("n%02d.md", i), typ: TypeUser, title: "t", body: strings.Repeat("b", 100)}
	}
	data := encodeSnapshot("v", roots, recs, nil)
	size := int64(len(data))
	// A count of 2³⁰ files in a 60-byte file: refused, not believed.
	hostile := encodeSnapshot("v", roots, nil, nil)
	hostile = hostile[:len(hostile)-2] // drop the empty count and extra
	hostile = binary.AppendUvarint(hostile, 1<<30)
	headLen := len(encodeSnapshot("v", roots, nil, nil)) - 2 // the bytes before the count
	type want struct {
		N  int
		OK bool
	}
	for _, tc := range []struct {
		name  string
		head  []byte
		size  int64
		tag   string
		roots [2]string
		want  want
	}{
		{"whole file", data, size, "v", roots, want{40, true}},
		{"first bytes", data[:headLen+1], size, "v", roots, want{40, true}},
		{"cut in the count", data[:headLen], size, "v", roots, want{}},
		{"cut in the header", data[:20], size, "v", roots, want{}},
		{"empty", nil, size, "v", roots, want{}},
		{"other tag", data, size, "w", roots, want{}},
		{"other roots", data, size, "v", [2]string{"/q", "/u"}, want{}},
		{"not a snapshot", []byte("memrsnaX" + string(data[8:])), size, "v", roots, want{}},
		{"more files than the size holds", hostile, int64(len(hostile)), "v", roots, want{}},
		{"jobs larger than the file", data, 40*int64(unsafe.Sizeof(job{})) - 1, "v", roots, want{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, ok := snapshotFiles(tc.head, tc.size, tc.tag, tc.roots)
			if diff := cmp.Diff(tc.want, want{n * btoi(ok), ok}); diff != "" {
				t.Errorf("snapshotFiles (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSnapshotHintOutgrown: a tree that grew past the snapshot's file
// count and the walk's margin for new files (decision 0838) is walked
// whole, and a fresh catalog seeded from the old snapshot finds what a
// scan without a snapshot finds.
func TestSnapshotHintOutgrown(t *testing.T) {
	roots := snapTree(t)
	file := filepath.Join(t.TempDir(), "x.snap")
	c := snapCatalog(roots, file, "v")
	if _, err := c.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.WaitSnapshot()
	for i := range 100 { // far past 4 + 4/16 + 16
		writeFile(t, roots.Project, fmt.Sprintf("d%d/n%03d.md", i%7, i), topic("user", fmt.Sprint("N", i), "added later"), time.Duration(i)*time.Minute)
	}
	fresh := snapCatalog(roots, file, "v")
	got, err := fresh.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fresh.WaitSnapshot()
	if st := fresh.SnapshotStats(); st.Loaded != 3 {
		t.Fatalf("stats %+v, want the 3 documents of the old snapshot loaded", st)
	}
	want := scanRoots(t, roots)
	if diff := cmp.Diff(snap(want), snap(got)); diff != "" {
		t.Errorf("seeded scan differs from a fresh scan (-fresh +seeded):\n%s", diff)
	}
}

// TestLocalClean: the one-pass check of a record's path agrees with
// filepath.IsLocal and filepath.Clean on every path of up to seven bytes
// over "a", "." and "/" (every arrangement of elements, separators and
// dots that short), and on rapid's strings.
func TestLocalClean(t *testing.T) {
	want := func(rel string) bool {
		p := filepath.FromSlash(rel)
		return filepath.IsLocal(p) && filepath.Clean(p) == p
	}
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		if got := localClean(prefix); got != want(prefix) {
			t.Errorf("localClean(%q) = %v, want %v", prefix, got, !got)
		}
		if n == 0 {
			return
		}
		for _, c := range []string{"a", ".", "/"} {
			all(prefix+c, n-1)
		}
	}
	all("", 7)
	rapid.Check(t, func(rt *rapid.T) {
		rel := rapid.StringMatching(`[a./é\\]{0,24}`).Draw(rt, "rel")
		if got := localClean(rel); got != want(rel) {
			rt.Fatalf("localClean(%q) = %v, want %v", rel, got, !got)
		}
	})
	if filepath.Separator != '/' {
		return
	}
	// On "/" systems it is fs.ValidPath without the UTF-8 check: the same
	// answer on valid UTF-8, and a name that is not UTF-8 stays acceptable.
	rapid.Check(t, func(rt *rapid.T) {
		rel := rapid.StringMatching(`[a./é\\]{0,24}`).Draw(rt, "rel")
		if got := localClean(rel); got != fs.ValidPath(rel) {
			rt.Fatalf("localClean(%q) = %v, fs.ValidPath %v", rel, got, !got)
		}
	})
	for _, rel := range []string{"\xff.md", "d/\xc3(.md", "\xed\xa0\x80/a"} {
		if !localClean(rel) || fs.ValidPath(rel) {
			t.Errorf("%q: localClean %v (want true), fs.ValidPath %v (want false)", rel, localClean(rel), fs.ValidPath(rel))
		}
	}
}

// TestUvarint: the snapshot's varint decoder gives what binary.Uvarint
// gives, value and length, for every value's encoding at every length
// from one to ten bytes, for non-minimal encodings, cut and overlong
// input, and for rapid's byte strings biased to continuation bytes.
func TestUvarint(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, b []byte) {
		v, n := uvarint(b)
		wv, wn := binary.Uvarint(b)
		if v != wv || n != wn {
			t.Fatalf("uvarint(% x) = %d, %d; binary.Uvarint gives %d, %d", b, v, n, wv, wn)
		}
	}
	for bit := range 64 {
		for _, v := range []uint64{1 << bit, 1<<bit - 1, 1<<bit + 1, ^uint64(0) >> bit} {
			b := binary.AppendUvarint(nil, v)
			for _, tail := range [][]byte{nil, {0}, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}} {
				whole := append(append([]byte(nil), b...), tail...)
				for cut := range len(whole) + 1 {
					check(t, whole[:cut])
				}
			}
		}
	}
	check(t, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02}) // overflow
	check(t, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	check(t, []byte{0x80, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06}) // not minimal
	rapid.Check(t, func(rt *rapid.T) {
		b := rapid.SliceOfN(rapid.OneOf(rapid.Byte(), rapid.ByteRange(0x80, 0xff), rapid.SampledFrom([]byte{0, 1, 0x7f, 0x80, 0x81, 0xff})), 0, 14).Draw(rt, "b")
		check(rt, b)
	})
}

// TestAppendJobSizedBySnapshot: the walk's jobs grow to the snapshot's
// file count and a sixteenth more when the count has arrived and the
// walk has not passed it; before it arrives, past it, or without a
// snapshot they double from 64 as before (decision 0838).
func TestAppendJobSizedBySnapshot(t *testing.T) {
	for _, tc := range []struct {
		name          string
		hint          int64 // -1: no snapshot load
		have, wantCap int
	}{
		{"no snapshot", -1, 0, 64},
		{"count not arrived", 0, 0, 64},
		{"count arrived first", 10000, 0, 10641},
		{"count arrived during the walk", 10000, 4096, 10641},
		{"walk at the count", 10000, 10641, 21282},
		{"walk past the count", 100, 128, 256},
		{"small tree", 3, 0, 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w walker
			var files atomic.Int64
			if tc.hint >= 0 {
				files.Store(tc.hint)
				w.files = &files
			}
			w.jobs = make([]job, tc.have)
			w.appendJob(job{rel: "x"})
			if got := cap(w.jobs); got != tc.wantCap || len(w.jobs) != tc.have+1 || w.jobs[tc.have].rel != "x" {
				t.Errorf("after appending to %d jobs: len %d cap %d, want len %d cap %d", tc.have, len(w.jobs), got, tc.have+1, tc.wantCap)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// titlesExtra is a SnapshotExtra that stores the documents' titles, so a
// test sees that the data comes back with the documents it was made for,
// in the same order.
type titlesExtra struct {
	loaded []string // the titles LoadSnapshot was given
	fail   error
}

func (x *titlesExtra) EncodeSnapshot(docs []*Document) []byte {
	var b []byte
	for _, d := range docs {
		b = append(b, d.Title...)
		b = append(b, 0)
	}
	return b
}

func (x *titlesExtra) LoadSnapshot(docs []*Document, data []byte) error {
	if got, want := string(data), string(x.EncodeSnapshot(docs)); got != want {
		return fmt.Errorf("data %q for documents %q", got, want)
	}
	for _, d := range docs {
		x.loaded = append(x.loaded, d.Title)
	}
	return x.fail
}

// TestSnapshotExtra: the caller's data is written with the documents and
// handed back with them, in the order it was made for; a refusal is
// counted, the documents stay seeded, and the snapshot is written anew
// once (a refused part would otherwise be refused by every later process).
func TestSnapshotExtra(t *testing.T) {
	roots := snapTree(t)
	file := filepath.Join(t.TempDir(), "x.snap")
	first := NewCatalog(roots, WithSnapshot(file, "v1", &titlesExtra{}))
	first.racyWindow = 0
	scanCat(t, first)

	for _, fail := range []error{nil, errors.New("refused")} {
		x := &titlesExtra{fail: fail}
		c := NewCatalog(roots, WithSnapshot(file, "v1", x))
		c.racyWindow = 0
		res := scanCat(t, c)
		slices.Sort(x.loaded)
		if diff := cmp.Diff([]string{"Alpha", "Beta", "Gamma"}, x.loaded); diff != "" {
			t.Errorf("fail=%v: loaded titles (-want +got):\n%s", fail, diff)
		}
		c.WaitSnapshot()
		want := SnapshotStats{Loaded: 3}
		if fail != nil {
			// The refused part is written anew at once, though no file
			// changed: otherwise every later process refuses it too.
			want.ExtraIgnored, want.Written = 1, 1
		}
		if got := c.SnapshotStats(); got != want {
			t.Errorf("fail=%v: stats %+v, want %+v", fail, got, want)
		}
		if res.Stats.Reused != 4 { // bad.md too, as skipped
			t.Errorf("fail=%v: reused %d, want 4", fail, res.Stats.Reused)
		}
		scanCat(t, c) // nothing changed: nothing more to write
		c.WaitSnapshot()
		if got := c.SnapshotStats().Written; got != want.Written {
			t.Errorf("fail=%v: %d written after a second scan of the unchanged tree, want %d", fail, got, want.Written)
		}
	}
}

// TestSnapshotOrder: the writer stores the documents in the order of a
// scan's result, skipped files after them, and a fresh catalog's first
// scan gives a fresh scan's result whether the stored order is that one
// or not (a snapshot written by an older binary, or a hostile one with a
// valid checksum): the order only spares the scan a sort.
func TestSnapshotOrder(t *testing.T) {
	roots := snapTree(t)
	writeFile(t, roots.Project, "e.md", topic("user", "Epsilon", "same mtime as a.md"), time.Hour)
	file := filepath.Join(t.TempDir(), "x.snap")
	want := scanCat(t, snapCatalog(roots, file, "v1"))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	recs, extra, err := decodeSnapshot(data, "v1", absRoots(roots))
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	seenSkipped := false
	for i := range recs {
		if recs[i].skipped {
			seenSkipped = true
			continue
		}
		if seenSkipped {
			t.Fatalf("record %d (%s) stored after a skipped file", i, recs[i].rel)
		}
		stored = append(stored, recs[i].rel)
	}
	var order []string
	for _, d := range want.Docs {
		order = append(order, filepath.ToSlash(d.RelPath))
	}
	if diff := cmp.Diff(order, stored); diff != "" {
		t.Errorf("stored order differs from the result's (-result +stored):\n%s", diff)
	}

	for _, tc := range []struct {
		name   string
		order  func([]snapRecord)
		sorted bool // the loader vouches for the order and seeds the result
	}{
		{"as written", func([]snapRecord) {}, true},
		{"reversed", slices.Reverse[[]snapRecord], false},
		{"swapped", func(r []snapRecord) { r[0], r[1] = r[1], r[0] }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := slices.Clone(recs)
			tc.order(rs)
			if err := os.WriteFile(file, encodeSnapshot("v1", absRoots(roots), rs, extra), 0o600); err != nil {
				t.Fatal(err)
			}
			// The loader's own answer, on a catalog of its own: the
			// stored documents as the result's order, or nothing.
			_, sorted := snapCatalog(roots, file, "v1").loadSnapshot(nil)
			var seeded []string
			for _, d := range sorted {
				seeded = append(seeded, filepath.ToSlash(d.RelPath))
			}
			if tc.sorted {
				if diff := cmp.Diff(order, seeded); diff != "" {
					t.Errorf("loader's sorted documents differ from the result's order (-result +loaded):\n%s", diff)
				}
			} else if sorted != nil {
				t.Errorf("loader vouched for an unsorted snapshot: %v", seeded)
			}
			c := snapCatalog(roots, file, "v1")
			got := scanCat(t, c)
			if diff := cmp.Diff(snap(want), snap(got)); diff != "" {
				t.Errorf("seeded scan differs from a fresh scan (-fresh +seeded):\n%s", diff)
			}
			if got.Stats.Read != 0 {
				t.Errorf("read %d files, want 0", got.Stats.Read)
			}
		})
	}
}

// TestSnapshotLoadSeeds: the load says, once it has ended, whether it has
// anything to seed (snapLoad.seeds): the walk and the scan stat the files
// they know nothing of only while it does. No file, a corrupt file and
// one of another version have nothing; a good snapshot has its entries.
func TestSnapshotLoadSeeds(t *testing.T) {
	roots := snapTree(t)
	good := filepath.Join(t.TempDir(), "good.snap")
	scanCat(t, snapCatalog(roots, good, "v1"))
	corrupt := filepath.Join(t.TempDir(), "corrupt.snap")
	if err := os.WriteFile(corrupt, []byte(snapshotMagic+"garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, tag string
		seeds           bool
	}{
		{"missing", filepath.Join(t.TempDir(), "none.snap"), "v1", false},
		{"corrupt", corrupt, "v1", false},
		{"good", good, "v1", true},
		{"other version", good, "v2", false}, // last: its scan writes a v2 file
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := snapCatalog(roots, tc.file, tc.tag)
			ld := c.startSnapshotLoad()
			ld.wait(c)
			if got := ld.seeds.Load(); got != tc.seeds {
				t.Errorf("seeds = %v, want %v", got, tc.seeds)
			}
			// And the first scan, seeded or not, is a fresh scan's.
			want := scanCat(t, NewCatalog(roots))
			c.snap.loaded = false
			c.cache = scopeCache{{}, {}}
			c.prev = nil
			if got := scanCat(t, c); !cmp.Equal(snap(want), snap(got)) {
				t.Errorf("first scan differs from a fresh one:\n%s", cmp.Diff(snap(want), snap(got)))
			}
		})
	}
}
