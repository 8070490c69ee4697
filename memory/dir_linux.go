//go:build linux

package memory

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"unsafe"
)

// dirHandle is a directory of the walk, held open by descriptor. Every
// directory is opened relative to its parent's descriptor (the root by
// its resolved path), one name at a time, with O_NOFOLLOW, O_DIRECTORY and
// O_NONBLOCK: a name swapped for a symlink fails (ELOOP or ENOTDIR) instead
// of being followed out of the root, and a name swapped for a FIFO fails
// with ENOTDIR in the kernel before any FIFO open could wait for a writer.
// So every directory the walk lists is reachable from the root through real
// directory entries, checked by the kernel at each step, and so is every
// file opened relative to one (docs/decisions/0110-walk-by-descriptor.md).
type dirHandle struct {
	fd int
	f  *os.File // owns fd; lists it
}

// dirOpenFlags open a directory without following a final symlink and
// without any chance of blocking.
const dirOpenFlags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// fileOpenFlags open a topic: O_NOFOLLOW refuses a symlink swapped in after
// listing, O_NONBLOCK keeps a FIFO swapped in from blocking (fstat then
// rejects it).
const fileOpenFlags = syscall.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

func newDirHandle(fd int, name string) *dirHandle {
	return &dirHandle{fd: fd, f: os.NewFile(uintptr(fd), name)}
}

// openRootDir opens a scope root by its resolved path. The last component
// is not followed: real has no symlinks left, so a link there means the
// root was swapped since it was resolved.
func openRootDir(real string) (*dirHandle, error) {
	fd, err := retryEINTR(func() (int, error) { return syscall.Open(real, dirOpenFlags, 0) })
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	return newDirHandle(fd, real), nil
}

// openSubdir opens the directory name inside d.
func (d *dirHandle) openSubdir(name, path string) (*dirHandle, error) {
	fd, err := retryEINTR(func() (int, error) { return syscall.Openat(d.fd, name, dirOpenFlags, 0) })
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: path, Err: err}
	}
	return newDirHandle(fd, path), nil
}

// openBeneathDir opens the directory at rel (slash-separated, no "..")
// below d without following any symlink on the way.
func (d *dirHandle) openBeneathDir(rel, path string) (*dirHandle, error) {
	fd, err := openBeneath(d.fd, rel, dirOpenFlags)
	if err != nil {
		return nil, &os.PathError{Op: "openat2", Path: path, Err: err}
	}
	return newDirHandle(fd, path), nil
}

// list returns the directory's entries with the types getdents reports.
func (d *dirHandle) list() ([]os.DirEntry, error) { return d.f.ReadDir(-1) }

// holdsFD reports that keeping the handle costs a descriptor, which
// maxOpenDirs bounds.
func (d *dirHandle) holdsFD() bool { return true }

func (d *dirHandle) close() { d.f.Close() }

// errEscape refuses a relative path that climbs out of its directory.
var errEscape = errors.New("memory: path leaves its root")

// openBeneath opens rel relative to dirfd, refusing every symlink and
// every way out of dirfd. A single name is one openat with O_NOFOLLOW (the
// per-file fast path). A longer path goes through openat2 with
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS, so the kernel itself refuses an
// escape; where openat2 is missing (kernels before 5.6, seccomp filters,
// architectures without the number wired up) it walks the path one
// component at a time with O_NOFOLLOW, which guarantees the same.
func openBeneath(dirfd int, rel string, flags int) (int, error) {
	if rel == "" || rel[0] == '/' {
		return -1, errEscape
	}
	if !strings.Contains(rel, "/") {
		if rel == ".." {
			return -1, errEscape
		}
		return retryEINTR(func() (int, error) { return syscall.Openat(dirfd, rel, flags|syscall.O_NOFOLLOW, 0) })
	}
	if hasDotDot(rel) {
		return -1, errEscape
	}
	if haveOpenat2 {
		fd, err := openat2Beneath(dirfd, rel, flags)
		switch err {
		case syscall.ENOSYS, syscall.EPERM, syscall.E2BIG:
			// Not available here (or filtered): walk instead.
		default:
			return fd, err
		}
	}
	return openByComponents(dirfd, rel, flags)
}

// hasDotDot reports a ".." component. Paths below a root come from
// resolved paths and never have one; refusing it keeps "below" literal.
func hasDotDot(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if part == ".." {
			return true
		}
	}
	return false
}

// Resolve flags of openat2(2).
const (
	resolveNoMagiclinks = 0x02
	resolveNoSymlinks   = 0x04
	resolveBeneath      = 0x08
)

// openHow is struct open_how.
type openHow struct {
	flags, mode, resolve uint64
}

func openat2Beneath(dirfd int, rel string, flags int) (int, error) {
	p, err := syscall.BytePtrFromString(rel)
	if err != nil {
		return -1, err
	}
	how := openHow{flags: uint64(flags | syscall.O_NOFOLLOW), resolve: resolveBeneath | resolveNoSymlinks | resolveNoMagiclinks}
	return retryEINTR(func() (int, error) {
		r, _, e := syscall.Syscall6(sysOpenat2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		if e != 0 {
			return -1, e
		}
		return int(r), nil
	})
}

// openByComponents is openBeneath without openat2: each directory on the
// way is opened relative to the previous one with O_NOFOLLOW|O_DIRECTORY.
func openByComponents(dirfd int, rel string, flags int) (int, error) {
	cur, owned := dirfd, false
	defer func() {
		if owned {
			syscall.Close(cur)
		}
	}()
	for {
		name, rest, more := strings.Cut(rel, "/")
		if name == "" || name == "." || name == ".." {
			return -1, errEscape
		}
		if !more {
			return retryEINTR(func() (int, error) { return syscall.Openat(cur, name, flags|syscall.O_NOFOLLOW, 0) })
		}
		fd, err := retryEINTR(func() (int, error) { return syscall.Openat(cur, name, dirOpenFlags, 0) })
		if err != nil {
			return -1, err
		}
		if owned {
			syscall.Close(cur)
		}
		cur, owned, rel = fd, true, rest
	}
}

func retryEINTR(f func() (int, error)) (int, error) {
	for {
		fd, err := f()
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
