//go:build !linux

package memory

import (
	"errors"
	"io"
	"io/fs"
	"path"
)

// osFS is the real file system through package os. Elsewhere than Linux
// it pays the os package's extra calls; ctime, inode and device are not
// part of the key, so the catalog relies on size and mtime (and the racy
// window) there.
type osFS struct{}

func (osFS) stat(_ string, at fileAt) (fileKey, error) {
	fi, err := at.dir.root.Lstat(joinRel(at))
	if err != nil {
		return fileKey{}, err
	}
	return keyOfInfo(fi), nil
}

func (osFS) readPrefix(_ string, at fileAt, buf []byte) (int, fileKey, error) {
	fi, err := at.dir.root.Lstat(joinRel(at))
	if err != nil {
		return 0, fileKey{}, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return 0, fileKey{}, fs.ErrNotExist // replaced by a link since listing
	}
	f, err := at.dir.open(at.name)
	if err != nil {
		return 0, fileKey{}, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return 0, fileKey{}, err
	}
	k := keyOfInfo(fi)
	if k.mode != 0 {
		return 0, k, errNotRegular
	}
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, k, err
	}
	return n, k, nil
}

func joinRel(at fileAt) string { return path.Join(at.dir.rel, at.name) }

func keyOfInfo(fi fs.FileInfo) fileKey {
	k := fileKey{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	switch m := fi.Mode(); {
	case m.IsRegular():
	case m.IsDir():
		k.mode = fs.ModeDir
	case m&fs.ModeSymlink != 0:
		k.mode = fs.ModeSymlink
	default:
		k.mode = fs.ModeIrregular
	}
	return k
}
