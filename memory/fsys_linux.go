//go:build linux

package memory

import (
	"io/fs"
	"strings"
	"syscall"
)

// osFS is the real file system. On Linux it calls the kernel directly:
// os.Open registers every file with the network poller (a failing
// epoll_ctl) and os.ReadFile adds fstat and a second read, so a plain
// open/fstat/read/close is less than half their system calls.
type osFS struct{}

func (osFS) stat(path string, at fileAt) (fileKey, error) {
	var st syscall.Stat_t
	var err error
	if haveFstatat && !strings.Contains(at.name, "/") {
		err = fstatat(at.dir.fd, at.name, &st, false) // retries EINTR itself
	} else {
		// A symlinked topic (a path below the root) or no fstatat here:
		// open it the safe way and stat the descriptor.
		var fd int
		if fd, err = openBeneath(at.dir.fd, at.name, fileOpenFlags); err == nil {
			err = syscall.Fstat(fd, &st)
			syscall.Close(fd)
		}
	}
	if err != nil {
		return fileKey{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return keyOf(&st), nil
}

func (osFS) readPrefix(path string, at fileAt, buf []byte) (int, fileKey, error) {
	fd, err := openBeneath(at.dir.fd, at.name, fileOpenFlags)
	if err != nil {
		return 0, fileKey{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return 0, fileKey{}, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	k := keyOf(&st)
	if k.mode != 0 {
		return 0, k, errNotRegular
	}
	n := 0
	for n < len(buf) && int64(n) < k.size {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, k, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if m <= 0 {
			break
		}
		n += m
	}
	return n, k, nil
}

func keyOf(st *syscall.Stat_t) fileKey {
	k := fileKey{
		size:  st.Size,
		mtime: st.Mtim.Nano(),
		ctime: st.Ctim.Nano(),
		ino:   st.Ino,
		dev:   uint64(st.Dev),
		links: uint64(st.Nlink),
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		k.mode = fs.ModeDir
	case syscall.S_IFLNK:
		k.mode = fs.ModeSymlink
	default:
		k.mode = fs.ModeIrregular
	}
	return k
}
