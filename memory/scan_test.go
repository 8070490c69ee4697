package memory

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// base is a fixed time the tests set mtimes from, so order is known.
var base = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

// topic returns a well-formed topic file.
func topic(typ, name, body string) string {
	return "---\nname: " + name + "\ndescription: about " + name + "\ntype: " + typ + "\n---\n" + body + "\n"
}

// writeFile writes content at dir/rel with mtime base+age.
func writeFile(t *testing.T, dir, rel, content string, age time.Duration) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, base.Add(age), base.Add(age)); err != nil {
		t.Fatal(err)
	}
	return p
}

func scanRoots(t *testing.T, roots Roots, opts ...Option) Result {
	t.Helper()
	res, err := Scan(context.Background(), roots, opts...)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return res
}

// skips builds the expected SkipCounts.
func skips(kv ...any) SkipCounts {
	var c SkipCounts
	for i := 0; i < len(kv); i += 2 {
		c[kv[i].(SkipReason)] += kv[i+1].(int)
	}
	return c
}

type docView struct {
	Scope   string
	RelPath string
	Type    string
	Title   string
}

func view(docs []*Document) []docView {
	out := make([]docView, len(docs))
	for i, d := range docs {
		out[i] = docView{d.Scope.String(), d.RelPath, d.Type.String(), d.Title}
	}
	return out
}

func TestScanOrderAndIdentity(t *testing.T) {
	proj, user := t.TempDir(), t.TempDir()
	writeFile(t, proj, "b.md", topic("project", "B", "b"), 0)
	writeFile(t, proj, "a.md", topic("project", "A", "a"), 0) // tie with b: by path
	writeFile(t, proj, "sub/dir/new.md", topic("reference", "New", "n"), time.Hour)
	writeFile(t, proj, "MEMORY.md", "- [A](a.md)\n", 0)
	writeFile(t, proj, "notes.txt", "not a topic", 0)
	writeFile(t, proj, ".git/x.md", topic("user", "Hidden", "h"), 0)
	writeFile(t, user, "a.md", topic("user", "Same rel path", "u"), 2*time.Hour)
	writeFile(t, user, "old.md", topic("feedback", "Old", "o"), -time.Hour)

	res := scanRoots(t, Roots{Project: proj, User: user})
	want := []docView{
		{"project", "sub/dir/new.md", "reference", "New"},
		{"project", "a.md", "project", "A"},
		{"project", "b.md", "project", "B"},
		{"user", "a.md", "user", "Same rel path"},
		{"user", "old.md", "feedback", "Old"},
	}
	if diff := cmp.Diff(want, view(res.Docs)); diff != "" {
		t.Errorf("docs (-want +got):\n%s", diff)
	}
	if res.Skipped != (SkipCounts{}) {
		t.Errorf("skipped = %v, want none", res.Skipped)
	}
	d := res.Docs[0]
	if want := ID(filepath.Join(proj, "sub", "dir", "new.md")); d.ID != want {
		t.Errorf("ID = %q, want %q", d.ID, want)
	}
	if !d.Modified.Equal(base.Add(time.Hour)) || d.Size == 0 || d.Description != "about New" {
		t.Errorf("doc fields: %+v", d)
	}
	if res.Docs[1].ID == res.Docs[3].ID {
		t.Error("the same relative path in both scopes must be two documents")
	}
}

func TestScanRelativeAndSymlinkedRoot(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "real/a.md", topic("user", "A", "a"), 0)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "real"), link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	res := scanRoots(t, Roots{Project: "link", User: ""})
	if len(res.Docs) != 1 || res.Skipped.Total() != 0 {
		t.Fatalf("got %v skipped %v, want one doc", view(res.Docs), res.Skipped)
	}
	if want := ID(filepath.Join(dir, "link", "a.md")); res.Docs[0].ID != want {
		t.Errorf("ID = %q, want %q (the root as given, made absolute)", res.Docs[0].ID, want)
	}
}

func TestScanHugeFileWithFrontmatterIsTruncatedDocument(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "big.md", topic("project", "Big", strings.Repeat("word ", 200_000)), 0)
	res := scanRoots(t, Roots{Project: dir})
	if len(res.Docs) != 1 {
		t.Fatalf("docs = %v, skipped %v", view(res.Docs), res.Skipped)
	}
	d := res.Docs[0]
	// The body holds what the scan read (ReadLimit bytes of file, less
	// the frontmatter), not the whole file.
	if !d.BodyTruncated || len(d.Body) > ReadLimit || len([]rune(d.Body)) <= BodyWindow || d.Size < 1_000_000 {
		t.Errorf("BodyTruncated=%v runes=%d size=%d", d.BodyTruncated, len([]rune(d.Body)), d.Size)
	}
}

// TestScanBadInput builds one real tree per bad input and checks that the
// scan still returns the good document and counts exactly that skip.
func TestScanBadInput(t *testing.T) {
	good := topic("project", "Good", "fine")
	tests := []struct {
		name  string
		build func(t *testing.T, root string) // root holds good.md already
		fsys  func(inner fileSystem) fileSystem
		want  SkipCounts
	}{
		{
			name:  "invalid UTF-8",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", "---\ntype: user\n---\n\xff\xfe", 0) },
			want:  skips(SkipInvalidUTF8, 1),
		},
		{
			name:  "binary",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", "---\ntype: user\n---\n\x00PNG", 0) },
			want:  skips(SkipBinary, 1),
		},
		{
			name:  "missing frontmatter",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", "# Just markdown\n", 0) },
			want:  skips(SkipNoFrontmatter, 1),
		},
		{
			name:  "empty file",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", "", 0) },
			want:  skips(SkipNoFrontmatter, 1),
		},
		{
			name:  "unterminated frontmatter",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", "---\ntype: user\nbody\n", 0) },
			want:  skips(SkipUnterminatedFrontmatter, 1),
		},
		{
			name:  "unknown type",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", "---\ntype: diary\n---\n", 0) },
			want:  skips(SkipUnknownType, 1),
		},
		{
			name:  "missing type",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", "---\nname: x\n---\n", 0) },
			want:  skips(SkipMissingType, 1),
		},
		{
			name: "frontmatter longer than the read limit",
			build: func(t *testing.T, r string) {
				writeFile(t, r, "x.md", "---\ntype: user\ndescription: "+strings.Repeat("x", 2*ReadLimit)+"\n---\n", 0)
			},
			want: skips(SkipTooLarge, 1),
		},
		{
			name: "symlink to a file outside the root",
			build: func(t *testing.T, r string) {
				out := writeFile(t, t.TempDir(), "secret.md", topic("user", "Secret", "s"), 0)
				symlink(t, out, filepath.Join(r, "x.md"))
			},
			want: skips(SkipSymlinkOutside, 1),
		},
		{
			name: "symlink to a directory outside the root",
			build: func(t *testing.T, r string) {
				out := t.TempDir()
				writeFile(t, out, "secret.md", topic("user", "Secret", "s"), 0)
				symlink(t, out, filepath.Join(r, "outdir"))
			},
			want: skips(SkipSymlinkOutside, 1),
		},
		{
			name: "relative symlink escaping with ..",
			build: func(t *testing.T, r string) {
				symlink(t, "../../../../../../../../etc/hostname", filepath.Join(r, "x.md"))
			},
			want: skips(SkipSymlinkOutside, 1),
		},
		{
			name:  "symlink to itself",
			build: func(t *testing.T, r string) { symlink(t, "x.md", filepath.Join(r, "x.md")) },
			want:  skips(SkipSymlinkLoop, 1),
		},
		{
			name: "symlink pair loop",
			build: func(t *testing.T, r string) {
				symlink(t, "b.md", filepath.Join(r, "a.md"))
				symlink(t, "a.md", filepath.Join(r, "b.md"))
			},
			want: skips(SkipSymlinkLoop, 2),
		},
		{
			name: "directory symlink to an ancestor",
			build: func(t *testing.T, r string) {
				writeFile(t, r, "sub/inner.md", topic("user", "Inner", "i"), -time.Hour)
				symlink(t, "..", filepath.Join(r, "sub", "up"))
				symlink(t, r, filepath.Join(r, "self"))
			},
			want: skips(SkipSymlinkLoop, 2),
		},
		{
			name: "symlink aliases inside the root are read once",
			build: func(t *testing.T, r string) {
				writeFile(t, r, "sub/inner.md", topic("user", "Inner", "i"), -time.Hour)
				symlink(t, "sub", filepath.Join(r, "alias"))
				symlink(t, "sub/inner.md", filepath.Join(r, "inner-link.md"))
			},
			want: skips(SkipSymlinkLoop, 2),
		},
		{
			name: "symlink to the index under a topic name",
			build: func(t *testing.T, r string) {
				writeFile(t, r, "MEMORY.md", topic("user", "Index", "i"), 0)
				writeFile(t, r, ".store/MEMORY.md", topic("user", "Hidden index", "i"), 0)
				symlink(t, "MEMORY.md", filepath.Join(r, "notes.md"))
				symlink(t, ".store/MEMORY.md", filepath.Join(r, "more.md"))
			},
			want: SkipCounts{},
		},
		{
			name: "dangling symlink",
			build: func(t *testing.T, r string) {
				symlink(t, filepath.Join(r, "nowhere.md"), filepath.Join(r, "x.md"))
			},
			want: skips(SkipUnreadable, 1),
		},
		{
			name: "FIFO named like a topic",
			build: func(t *testing.T, r string) {
				if err := mkfifo(filepath.Join(r, "x.md")); err != nil {
					t.Skipf("no FIFOs here: %v", err)
				}
			},
			want: skips(SkipUnreadable, 1),
		},
		{
			name:  "read error",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", good, 0) },
			fsys:  failRead("x.md", &fs.PathError{Op: "read", Path: "x", Err: syscall.EIO}),
			want:  skips(SkipUnreadable, 1),
		},
		{
			name:  "permission denied (injected)",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", good, 0) },
			fsys:  failRead("x.md", &fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}),
			want:  skips(SkipPermission, 1),
		},
		{
			name: "permission denied (chmod 000 file)",
			build: func(t *testing.T, r string) {
				p := writeFile(t, r, "x.md", good, 0)
				chmodDenied(t, p)
			},
			want: skips(SkipPermission, 1),
		},
		{
			name: "permission denied (chmod 000 directory)",
			build: func(t *testing.T, r string) {
				writeFile(t, r, "locked/x.md", good, 0)
				chmodDenied(t, filepath.Join(r, "locked"))
			},
			want: skips(SkipPermission, 1),
		},
		{
			name:  "file vanishes between listing and reading",
			build: func(t *testing.T, r string) { writeFile(t, r, "x.md", good, 0) },
			fsys: func(inner fileSystem) fileSystem {
				return hookFS{inner: inner, before: func(path string) {
					if filepath.Base(path) == "x.md" {
						os.Remove(path)
					}
				}}
			},
			want: skips(SkipVanished, 1),
		},
		{
			name: "file replaced by a symlink between listing and reading",
			build: func(t *testing.T, r string) {
				writeFile(t, r, "x.md", good, 0)
				writeFile(t, r, "other.txt", good, 0)
			},
			fsys: func(inner fileSystem) fileSystem {
				return hookFS{inner: inner, before: func(path string) {
					if filepath.Base(path) == "x.md" {
						os.Remove(path)
						os.Symlink("other.txt", path)
					}
				}}
			},
			want: skips(SkipVanished, 1),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, "good.md", good, time.Hour)
			tt.build(t, root)
			c := NewCatalog(Roots{Project: root})
			if tt.fsys != nil {
				c.fsys = tt.fsys(c.fsys)
			}
			res, err := c.Scan(context.Background())
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			if diff := cmp.Diff(tt.want.String(), res.Skipped.String()); diff != "" {
				t.Errorf("skips (-want +got):\n%s", diff)
			}
			if len(res.Docs) == 0 || res.Docs[0].Title != "Good" {
				t.Errorf("the good document is missing: %v", view(res.Docs))
			}
			for _, d := range res.Docs {
				if !strings.HasPrefix(string(d.ID), root) {
					t.Errorf("document %q from outside the root", d.ID)
				}
				if strings.HasSuffix(d.Title, "ndex") {
					t.Errorf("the index became a candidate as %s", d.RelPath)
				}
			}
		})
	}
}

func TestScanRootMissing(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "file", "x", 0)
	tests := []struct {
		name  string
		roots Roots
		want  SkipCounts
	}{
		{"both absent", Roots{}, SkipCounts{}},
		{"project does not exist", Roots{Project: filepath.Join(dir, "nope")}, skips(SkipRootMissing, 1)},
		{"both do not exist", Roots{Project: filepath.Join(dir, "a"), User: filepath.Join(dir, "b")}, skips(SkipRootMissing, 2)},
		{"root is a file", Roots{User: file}, skips(SkipRootMissing, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := scanRoots(t, tt.roots)
			if res.Skipped != tt.want || len(res.Docs) != 0 {
				t.Errorf("skipped %v docs %d, want %v and none", res.Skipped, len(res.Docs), tt.want)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// chmodDenied removes every permission from path, and skips the test when
// that does not deny reading, as for root (CAP_DAC_OVERRIDE); the injected
// variant of the test covers that case.
func chmodDenied(t *testing.T, path string) {
	t.Helper()
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(path, 0o755) })
	f, err := os.Open(path)
	if err == nil {
		f.Close()
		t.Skip("chmod 000 does not deny this user (running as root); see the injected permission test")
	}
}

// hookFS runs before ahead of every read, to change the tree at the moment
// a worker is about to open a file.
type hookFS struct {
	inner  fileSystem
	before func(path string)
	reads  *atomic.Int64
	stats  *atomic.Int64
}

func (h hookFS) stat(path string, at fileAt) (fileKey, error) {
	if h.stats != nil {
		h.stats.Add(1)
	}
	return h.inner.stat(path, at)
}

func (h hookFS) readPrefix(path string, at fileAt, buf []byte) (int, fileKey, error) {
	if h.before != nil {
		h.before(path)
	}
	if h.reads != nil {
		h.reads.Add(1)
	}
	return h.inner.readPrefix(path, at, buf)
}

// failRead makes reads of files named base fail with err.
func failRead(base string, err error) func(fileSystem) fileSystem {
	return func(inner fileSystem) fileSystem {
		return errFS{inner: inner, base: base, err: err}
	}
}

type errFS struct {
	inner fileSystem
	base  string
	err   error
}

func (e errFS) stat(path string, at fileAt) (fileKey, error) {
	return e.inner.stat(path, at)
}

func (e errFS) readPrefix(path string, at fileAt, buf []byte) (int, fileKey, error) {
	if filepath.Base(path) == e.base {
		return 0, fileKey{}, e.err
	}
	return e.inner.readPrefix(path, at, buf)
}

func TestSkipReasonStrings(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range SkipReasons() {
		s := r.String()
		if s == "" || strings.HasPrefix(s, "SkipReason(") || seen[s] {
			t.Errorf("reason %d has label %q (missing or duplicate)", r, s)
		}
		seen[s] = true
	}
	if got := SkipReason(200).String(); got != "SkipReason(200)" {
		t.Errorf("out of range: %q", got)
	}
	if got := skipForIO(errors.New("other")); got != SkipUnreadable {
		t.Errorf("skipForIO(other) = %v", got)
	}
}

// TestScanDepthBound: each level of the walk holds its directory open while
// its subdirectories are listed, so nesting is bounded (maxDepth); a deeper
// directory is one counted skip, and everything above it is read.
func TestScanDepthBound(t *testing.T) {
	root := t.TempDir()
	rel := ""
	for i := range maxDepth + 2 {
		rel = filepath.Join(rel, "d")
		if i == 3 {
			writeFile(t, root, filepath.Join(rel, "shallow.md"), topic("user", "Shallow", "s"), 0)
		}
	}
	writeFile(t, root, filepath.Join(rel, "deep.md"), topic("user", "Deep", "d"), 0)
	res := scanRoots(t, Roots{Project: root})
	if len(res.Docs) != 1 || res.Docs[0].Title != "Shallow" {
		t.Errorf("docs %v, want only the shallow one", view(res.Docs))
	}
	if want := skips(SkipUnreadable, 1); res.Skipped != want {
		t.Errorf("skipped %v, want %v", res.Skipped, want)
	}
}
