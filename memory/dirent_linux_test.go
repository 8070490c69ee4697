//go:build linux

package memory

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// TestListMatchesReadDir: the walk's own getdents listing gives the same
// names and types as os.File.ReadDir, for every kind of entry, for long
// names, and for a directory too big for one getdents call.
func TestListMatchesReadDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 3000 {
		writeFile(t, dir, fmt.Sprintf("t%05d.md", i), "x", 0)
	}
	writeFile(t, dir, strings.Repeat("n", 252)+".md", "long", 0)
	writeFile(t, dir, ".hidden.md", "h", 0)
	writeFile(t, dir, "MEMORY.md", "index", 0)
	writeFile(t, dir, "sub/inner.md", "i", 0)
	writeFile(t, dir, "名前.md", "utf-8 name", 0)
	symlink(t, filepath.Join(dir, "t00000.md"), filepath.Join(dir, "link.md"))
	symlink(t, filepath.Join(dir, "sub"), filepath.Join(dir, "dirlink"))
	if err := mkfifo(filepath.Join(dir, "fifo.md")); err != nil {
		t.Fatal(err)
	}
	d, err := openRootDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	for _, size := range []int{0, 64, 1 << 20} { // grown from nothing, from too small, big enough
		got, _, err := d.list(make([]byte, size))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := syscall.Seek(d.fd, 0, 0); err != nil { // list again from the start
			t.Fatal(err)
		}
		if diff := cmp.Diff(readDirEntries(t, dir), sortedEntries(got)); diff != "" {
			t.Errorf("buffer %d: list differs from os.ReadDir (-want +got):\n%s", size, diff)
		}
	}
}

// listEntry is a listing entry in a comparable form.
type listEntry struct {
	Name string
	Type fs.FileMode
}

func readDirEntries(t *testing.T, dir string) []listEntry {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]listEntry, len(ents))
	for i, e := range ents {
		out[i] = listEntry{e.Name(), e.Type()}
	}
	return out
}

func sortedEntries(ents []dirent) []listEntry {
	out := make([]listEntry, len(ents))
	for i, e := range ents {
		out[i] = listEntry{e.name, e.typ}
	}
	slices.SortFunc(out, func(a, b listEntry) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// direntRec encodes one linux_dirent64 record as getdents64 writes it:
// padded to 8 bytes, the name NUL-terminated.
func direntRec(name string, typ byte) []byte {
	n := (direntNameOff + len(name) + 1 + 7) &^ 7
	b := make([]byte, n)
	binary.NativeEndian.PutUint64(b, 1)
	binary.NativeEndian.PutUint16(b[direntLenOff:], uint16(n))
	b[direntTypeOff] = typ
	copy(b[direntNameOff:], name)
	return b
}

// TestPropParseDirents: records as the kernel writes them parse back to
// their names and types, "." and ".." left out, and a record of unknown
// type takes its type from typeOf (or is left out when it has vanished).
func TestPropParseDirents(t *testing.T) {
	types := []byte{syscall.DT_REG, syscall.DT_DIR, syscall.DT_LNK, syscall.DT_FIFO, syscall.DT_SOCK, syscall.DT_CHR, syscall.DT_BLK, syscall.DT_UNKNOWN}
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z.名_-]{1,40}`), 0, 30, rapid.ID[string]).Draw(t, "names")
		var raw []byte
		var want []listEntry
		for _, name := range names {
			typ := rapid.SampledFrom(types).Draw(t, "type")
			raw = append(raw, direntRec(name, typ)...)
			if dotEntry(name) {
				continue
			}
			switch {
			case typ != syscall.DT_UNKNOWN:
				want = append(want, listEntry{name, direntMode(typ)})
			case !strings.HasPrefix(name, "gone"):
				want = append(want, listEntry{name, fs.ModeDir})
			}
		}
		typeOf := func(name string) (fs.FileMode, error) {
			if strings.HasPrefix(name, "gone") {
				return 0, syscall.ENOENT
			}
			return fs.ModeDir, nil
		}
		got, err := parseDirents(raw, typeOf)
		if err != nil {
			t.Fatal(err)
		}
		var gotC []listEntry
		for _, e := range got {
			gotC = append(gotC, listEntry{e.name, e.typ})
		}
		if diff := cmp.Diff(want, gotC); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	})
}

// TestParseDirentsRefusesMalformed: a record that does not fit, has no
// name or no NUL is an error, never a read past the buffer.
func TestParseDirentsRefusesMalformed(t *testing.T) {
	good := direntRec("a.md", syscall.DT_REG)
	zeroLen := slices.Clone(good)
	binary.NativeEndian.PutUint16(zeroLen[direntLenOff:], 0)
	tooLong := slices.Clone(good)
	binary.NativeEndian.PutUint16(tooLong[direntLenOff:], uint16(len(good)+8))
	noNUL := slices.Clone(good)
	for i := direntNameOff; i < len(noNUL); i++ {
		noNUL[i] = 'x'
	}
	emptyName := direntRec("", syscall.DT_REG)
	tests := []struct {
		name string
		raw  []byte
	}{
		{"truncated header", good[:direntNameOff]},
		{"zero length", zeroLen},
		{"length past the buffer", tooLong},
		{"no NUL", noNUL},
		{"empty name", emptyName},
		{"good then truncated", append(slices.Clone(good), good[:10]...)},
	}
	for _, tt := range tests {
		if _, err := parseDirents(tt.raw, nil); err != errBadDirent {
			t.Errorf("%s: err = %v, want errBadDirent", tt.name, err)
		}
	}
}

// TestTypeOfDoesNotFollow: the fallback for DT_UNKNOWN stats the entry
// itself: a symlink is a symlink, a vanished name is ENOENT.
func TestTypeOfDoesNotFollow(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.md", "x", 0)
	writeFile(t, dir, "sub/b.md", "x", 0)
	symlink(t, filepath.Join(dir, "sub"), filepath.Join(dir, "link"))
	d, err := openRootDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	for name, want := range map[string]fs.FileMode{"a.md": 0, "sub": fs.ModeDir, "link": fs.ModeSymlink} {
		if got, err := d.typeOf(name); err != nil || got != want {
			t.Errorf("typeOf(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := d.typeOf("gone.md"); err != syscall.ENOENT {
		t.Errorf("typeOf(gone) err = %v, want ENOENT", err)
	}
}

// TestParseDirentsKeepsEntriesBeforeTypeOfFailure: when typeOf fails with
// anything but ENOENT, the listing stops there and hands back the entries
// before the failing one with the error, as os.File.ReadDir does, so
// walkDir walks them (the watch doubted) instead of skipping the directory.
func TestParseDirentsKeepsEntriesBeforeTypeOfFailure(t *testing.T) {
	var raw []byte
	for _, r := range []struct {
		name string
		typ  byte
	}{
		{"a.md", syscall.DT_REG},
		{"gone.md", syscall.DT_UNKNOWN},
		{"sub", syscall.DT_UNKNOWN},
		{"bad.md", syscall.DT_UNKNOWN},
		{"c.md", syscall.DT_REG},
	} {
		raw = append(raw, direntRec(r.name, r.typ)...)
	}
	typeOf := func(name string) (fs.FileMode, error) {
		switch name {
		case "gone.md":
			return 0, syscall.ENOENT
		case "bad.md":
			return 0, syscall.EIO
		}
		return fs.ModeDir, nil
	}
	got, err := parseDirents(raw, typeOf)
	if err != syscall.EIO {
		t.Errorf("err = %v, want EIO", err)
	}
	var gotC []listEntry
	for _, e := range got {
		gotC = append(gotC, listEntry{e.name, e.typ})
	}
	want := []listEntry{{"a.md", 0}, {"sub", fs.ModeDir}}
	if diff := cmp.Diff(want, gotC); diff != "" {
		t.Errorf("entries before the failure (-want +got):\n%s", diff)
	}
}

// TestListKeepsEntriesBeforeGetdentsFailure: a getdents64 call that fails
// after earlier calls succeeded hands back the entries those calls read,
// with the error, as os.File.ReadDir does; a failing first call hands back
// none. Each call is given a small window so a directory takes several.
func TestListKeepsEntriesBeforeGetdentsFailure(t *testing.T) {
	dir := t.TempDir()
	for i := range 200 {
		writeFile(t, dir, fmt.Sprintf("t%03d.md", i), "x", 0)
	}
	all := readDirEntries(t, dir)
	for _, failAt := range []int{1, 2, 3} {
		d, err := openRootDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		var read []listEntry // what the calls before the failing one returned
		d.readDirent = func(fd int, buf []byte) (int, error) {
			calls++
			if calls == failAt {
				return 0, syscall.EIO
			}
			n, err := syscall.ReadDirent(fd, buf[:256])
			if err == nil {
				for rest := buf[:n]; len(rest) > 0; {
					reclen, name, ok := direntRecord(rest)
					if !ok {
						t.Fatalf("call %d: malformed record", calls)
					}
					if !dotEntry(name) {
						// Every entry is a regular file, whether the record
						// says so or list asks typeOf (DT_UNKNOWN).
						read = append(read, listEntry{Name: name})
					}
					rest = rest[reclen:]
				}
			}
			return n, err
		}
		got, _, err := d.list(nil)
		d.close()
		if !errors.Is(err, syscall.EIO) {
			t.Errorf("fail at call %d: err = %v, want EIO", failAt, err)
		}
		slices.SortFunc(read, func(a, b listEntry) int { return strings.Compare(a.Name, b.Name) })
		if diff := cmp.Diff(read, sortedEntries(got), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("fail at call %d: entries (-read before the failure +listed):\n%s", failAt, diff)
		}
		if failAt > 1 && (len(got) == 0 || len(got) >= len(all)) {
			t.Errorf("fail at call %d: %d of %d entries listed; want some but not all", failAt, len(got), len(all))
		}
	}
}
