//go:build !linux

package memory

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// osFS is the real file system through package os. Elsewhere than Linux
// it pays the os package's extra calls; ctime, inode and device are not
// part of the key, so the catalog relies on size and mtime (and the racy
// window) there.
type osFS struct{}

func (osFS) stat(path string, _ fileAt, follow bool) (fileKey, error) {
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = os.Stat(path)
	} else {
		fi, err = os.Lstat(path)
	}
	if err != nil {
		return fileKey{}, err
	}
	return keyOfInfo(fi), nil
}

func (osFS) readPrefix(path string, _ fileAt, buf []byte, follow bool) (int, fileKey, error) {
	if !follow {
		fi, err := os.Lstat(path)
		if err != nil {
			return 0, fileKey{}, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return 0, fileKey{}, fs.ErrNotExist
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, fileKey{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
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

// dirFD is -1 here: reads go by path.
func dirFD(*os.File) int { return -1 }
