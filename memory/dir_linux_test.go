//go:build linux

package memory

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenBeneathRefusesEscapes checks both ways openBeneath resolves a
// path (openat2 and the component walk): a symlink anywhere on the path,
// "..", an absolute path, a FIFO: each fails without following, climbing
// or blocking.
func TestOpenBeneathRefusesEscapes(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeFile(t, root, "a/b/ok.md", "inside", 0)
	writeFile(t, outside, "b/ok.md", "outside", 0)
	symlink(t, outside, filepath.Join(root, "link"))
	symlink(t, filepath.Join(root, "a", "b", "ok.md"), filepath.Join(root, "a", "file-link.md"))
	if err := mkfifo(filepath.Join(root, "a", "fifo")); err != nil {
		t.Fatal(err)
	}
	rd, err := openRootDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.close()
	ways := map[string]func(int, string, int) (int, error){
		"openBeneath":      openBeneath,
		"openByComponents": openByComponents,
	}
	tests := []struct {
		rel  string
		flag int
		ok   bool
	}{
		{"a/b/ok.md", fileOpenFlags, true},
		{"a/b", dirOpenFlags, true},
		{"link/b/ok.md", fileOpenFlags, false},
		{"a/file-link.md", fileOpenFlags, false},
		{"a/../a/b/ok.md", fileOpenFlags, false},
		{"../" + filepath.Base(outside) + "/b/ok.md", fileOpenFlags, false},
		{"/etc/hostname", fileOpenFlags, false},
		{"a/fifo", dirOpenFlags, false},
	}
	for name, open := range ways {
		for _, tt := range tests {
			fd, err := open(rd.fd, tt.rel, tt.flag)
			if err == nil {
				syscall.Close(fd)
			}
			if (err == nil) != tt.ok {
				t.Errorf("%s(%q) err = %v, want ok=%v", name, tt.rel, err, tt.ok)
			}
		}
	}
	// A FIFO opened as a file does not block either; the read path rejects
	// it after fstat.
	fd, err := openBeneath(rd.fd, "a/fifo", fileOpenFlags)
	if err != nil {
		t.Fatalf("open FIFO non-blocking: %v", err)
	}
	syscall.Close(fd)
	if _, _, err := (osFS{}).readPrefix("fifo", fileAt{rd, "a/fifo"}, make([]byte, 16)); !errors.Is(err, errNotRegular) {
		t.Errorf("readPrefix(FIFO) = %v, want errNotRegular", err)
	}
	if _, err := openRootDir(filepath.Join(root, "a", "fifo")); err == nil {
		t.Errorf("a FIFO opened as a root")
	}
	if _, err := openRootDir(filepath.Join(root, "link")); err == nil {
		t.Errorf("a root swapped for a symlink was followed")
	}
}

// TestOpenatNameAsOpenat checks openatName against syscall.Openat, whose
// allocation it avoids: the same file or the same error for a plain name,
// a missing one, a symlink under O_NOFOLLOW, a name with a NUL byte (never
// cut short at the NUL) and names at and past its stack buffer; and no
// allocation for a name that fits, nor for openat2Beneath's path.
func TestOpenatNameAsOpenat(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "ok.md", "inside", 0)
	long := strings.Repeat("n", 255)
	writeFile(t, dir, long, "long", 0)
	symlink(t, filepath.Join(dir, "ok.md"), filepath.Join(dir, "link.md"))
	rd, err := openRootDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.close()
	ino := func(fd int) uint64 {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			t.Fatal(err)
		}
		return st.Ino
	}
	for _, name := range []string{"ok.md", "missing.md", "link.md", "ok.md\x00x", "\x00", long, long + "n", strings.Repeat("n", 300), "."} {
		want, werr := syscall.Openat(rd.fd, name, fileOpenFlags, 0)
		got, gerr := openatName(rd.fd, name, fileOpenFlags)
		if gerr != werr {
			t.Errorf("openatName(%.20q) err = %v, syscall.Openat: %v", name, gerr, werr)
		}
		if werr == nil && gerr == nil && ino(got) != ino(want) {
			t.Errorf("openatName(%.20q) opened another file", name)
		}
		for _, fd := range []int{got, want} {
			if fd >= 0 {
				syscall.Close(fd)
			}
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		fd, err := openatName(rd.fd, "ok.md", fileOpenFlags)
		if err != nil {
			t.Fatal(err)
		}
		syscall.Close(fd)
	})
	if allocs != 0 {
		t.Errorf("openatName allocates %.1f times a call, want 0", allocs)
	}
	// openat2Beneath takes the same buffer for a path below dirfd.
	writeFile(t, dir, "a/b/ok.md", "below", 0)
	fd, err := openat2Beneath(rd.fd, "a/b/ok.md", fileOpenFlags)
	if err != nil {
		t.Skipf("openat2 here: %v", err)
	}
	syscall.Close(fd)
	if _, err := openat2Beneath(rd.fd, "a/b/ok.md\x00x", fileOpenFlags); err != syscall.EINVAL {
		t.Errorf("openat2Beneath of a name with a NUL byte: %v, want EINVAL", err)
	}
	allocs = testing.AllocsPerRun(100, func() {
		fd, err := openat2Beneath(rd.fd, "a/b/ok.md", fileOpenFlags)
		if err != nil {
			t.Fatal(err)
		}
		syscall.Close(fd)
	})
	if allocs != 0 {
		t.Errorf("openat2Beneath allocates %.1f times a call, want 0", allocs)
	}
}

// TestFstatatRefusesNUL: fstatat takes its name from the same stack buffer
// as openatName (cName), so a name holding a NUL byte is refused with
// EINVAL as syscall's own calls refuse it, not cut short at the NUL and
// another file stated in its place; a name that fits allocates nothing,
// and a name past the buffer still goes to the kernel.
func TestFstatatRefusesNUL(t *testing.T) {
	if !haveFstatat {
		t.Skip("no fstatat on this architecture")
	}
	dir := t.TempDir()
	writeFile(t, dir, "ok.md", "inside", 0)
	long := strings.Repeat("n", 255)
	writeFile(t, dir, long, "long", 0)
	rd, err := openRootDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.close()
	var st syscall.Stat_t
	for _, name := range []string{"ok.md\x00x", "ok.md\x00", "\x00"} {
		if err := fstatat(rd.fd, name, &st, false); err != syscall.EINVAL {
			t.Errorf("fstatat(%q) = %v, want EINVAL", name, err)
		}
	}
	for _, name := range []string{"ok.md", long} {
		if err := fstatat(rd.fd, name, &st, false); err != nil {
			t.Errorf("fstatat(%.20q): %v", name, err)
		}
	}
	if err := fstatat(rd.fd, long+"n", &st, false); err != syscall.ENAMETOOLONG {
		t.Errorf("fstatat of a name past the buffer: %v, want ENAMETOOLONG", err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if err := fstatat(rd.fd, "ok.md", &st, false); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("fstatat allocates %.1f times a call, want 0", allocs)
	}
}
