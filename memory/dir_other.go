//go:build !linux

package memory

import (
	"errors"
	"os"
	"path"
	"strings"
)

// dirHandle is a directory of the walk elsewhere than Linux: a path below
// the scope root's os.Root, which resolves every name inside the root and
// refuses any escape (symlinks included) on every platform. No descriptor
// is held per directory; the listing opens and closes one.
type dirHandle struct {
	root *os.Root
	rel  string // slash-separated below root; "." for the root
	own  bool   // the scope root's handle: closing it closes root
}

// openRootDir opens a scope root by its resolved path. os.OpenRoot would
// block on a FIFO, so the root is checked to be a directory first; the
// window between the check and the open is the one race left on these
// platforms (docs/decisions/0110-walk-by-descriptor.md).
func openRootDir(real string) (*dirHandle, error) {
	fi, err := os.Lstat(real)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &os.PathError{Op: "open", Path: real, Err: errNotDir}
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, err
	}
	return &dirHandle{root: r, rel: ".", own: true}, nil
}

var errNotDir = errors.New("not a directory")

func (d *dirHandle) openSubdir(name, _ string) (*dirHandle, error) {
	return &dirHandle{root: d.root, rel: path.Join(d.rel, name)}, nil
}

func (d *dirHandle) openBeneathDir(rel, _ string) (*dirHandle, error) {
	if rel == "" || strings.HasPrefix(rel, "/") {
		return nil, errEscape
	}
	return &dirHandle{root: d.root, rel: path.Join(d.rel, rel)}, nil
}

// list opens the directory inside the root without blocking, checks that
// it is one, and reads it.
func (d *dirHandle) list(buf []byte) ([]dirent, []byte, error) {
	ents, err := d.readDir()
	out := make([]dirent, len(ents))
	for i, e := range ents {
		out[i] = dirent{name: e.Name(), typ: e.Type()}
	}
	return out, buf, err
}

func (d *dirHandle) readDir() ([]os.DirEntry, error) {
	f, err := d.root.OpenFile(d.rel, os.O_RDONLY|nonblockFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &os.PathError{Op: "open", Path: d.rel, Err: errNotDir}
	}
	return f.ReadDir(-1)
}

func (d *dirHandle) holdsFD() bool { return false }

func (d *dirHandle) close() {
	if d.own {
		d.root.Close()
	}
}

// errEscape refuses a relative path that climbs out of its directory.
var errEscape = errors.New("memory: path leaves its root")

// open opens name below d inside the root without blocking.
func (d *dirHandle) open(name string) (*os.File, error) {
	return d.root.OpenFile(path.Join(d.rel, name), os.O_RDONLY|nonblockFlags, 0)
}
