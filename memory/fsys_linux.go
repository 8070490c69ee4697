//go:build linux

package memory

import (
	"io/fs"
	"os"
	"syscall"
)

// osFS is the real file system. On Linux it calls the kernel directly:
// os.Open registers every file with the network poller (a failing
// epoll_ctl) and os.ReadFile adds fstat and a second read, so a plain
// open/fstat/read/close is less than half their system calls.
type osFS struct{}

func (osFS) stat(path string, at fileAt, follow bool) (fileKey, error) {
	var st syscall.Stat_t
	var err error
	for {
		if haveFstatat && at.dirfd >= 0 {
			err = fstatat(at.dirfd, at.name, &st, follow)
		} else if follow {
			err = syscall.Stat(path, &st)
		} else {
			err = syscall.Lstat(path, &st)
		}
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return fileKey{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return keyOf(&st), nil
}

func (osFS) readPrefix(path string, at fileAt, buf []byte, follow bool) (int, fileKey, error) {
	// O_NONBLOCK: a FIFO swapped in after listing must not block the scan.
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		if at.dirfd >= 0 {
			fd, err = syscall.Openat(at.dirfd, at.name, flags, 0)
		} else {
			fd, err = syscall.Open(path, flags, 0)
		}
		if err != syscall.EINTR {
			break
		}
	}
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

// dirFD returns the descriptor of an open directory for openat.
func dirFD(f *os.File) int {
	// SyscallConn avoids Fd's switch of the file to blocking mode.
	rc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	if err := rc.Control(func(d uintptr) { fd = int(d) }); err != nil {
		return -1
	}
	return fd
}
