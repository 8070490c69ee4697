//go:build linux

package memory

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
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
//
// The handle is the bare descriptor, not an *os.File: os.NewFile costs two
// system calls per directory (fcntl, and an epoll_ctl that fails for a
// directory), and os.File.ReadDir two allocations per entry, each holding
// a pointer the collector must mark. list reads the entries with getdents
// itself (decision 0613).
type dirHandle struct {
	fd int // -1 once closed

	// readDirent reads raw records as syscall.ReadDirent does; nil means
	// syscall.ReadDirent. A test sets it to make a getdents64 call fail.
	readDirent func(fd int, buf []byte) (int, error)
}

// dirOpenFlags open a directory without following a final symlink and
// without any chance of blocking.
const dirOpenFlags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// fileOpenFlags open a topic: O_NOFOLLOW refuses a symlink swapped in after
// listing, O_NONBLOCK keeps a FIFO swapped in from blocking (fstat then
// rejects it).
const fileOpenFlags = syscall.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

func newDirHandle(fd int) *dirHandle {
	return &dirHandle{fd: fd}
}

// openRootDir opens a scope root by its resolved path. The last component
// is not followed: real has no symlinks left, so a link there means the
// root was swapped since it was resolved.
func openRootDir(real string) (*dirHandle, error) {
	fd, err := retryEINTR(func() (int, error) { return syscall.Open(real, dirOpenFlags, 0) })
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	return newDirHandle(fd), nil
}

// openSubdir opens the directory name inside d.
func (d *dirHandle) openSubdir(name, path string) (*dirHandle, error) {
	fd, err := retryEINTR(func() (int, error) { return syscall.Openat(d.fd, name, dirOpenFlags, 0) })
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: path, Err: err}
	}
	return newDirHandle(fd), nil
}

// openBeneathDir opens the directory at rel (slash-separated, no "..")
// below d without following any symlink on the way.
func (d *dirHandle) openBeneathDir(rel, path string) (*dirHandle, error) {
	fd, err := openBeneath(d.fd, rel, dirOpenFlags)
	if err != nil {
		return nil, &os.PathError{Op: "openat2", Path: path, Err: err}
	}
	return newDirHandle(fd), nil
}

// list returns the directory's entries, in the kernel's order, with the
// types getdents reports ("." and ".." left out). Their names are
// substrings of one string per directory. buf is the caller's scratch for
// the raw records; it is grown as needed and handed back.
func (d *dirHandle) list(buf []byte) ([]dirent, []byte, error) {
	if len(buf) < direntBufSize {
		buf = make([]byte, direntBufSize)
	}
	// The records of a directory's every getdents call are kept until the
	// end, so the names can be cut from one string: buf[:used] holds them.
	used := 0
	for {
		if len(buf)-used < direntBufSize/2 {
			buf = append(buf[:used], make([]byte, len(buf))...)
			buf = buf[:cap(buf)]
		}
		n, err := d.getdents(buf[used:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			// The records earlier calls read are kept, as os.File.ReadDir
			// returns the entries read before a failing call: walkDir
			// then walks them with the watch doubted instead of skipping
			// the whole directory.
			err = os.NewSyscallError("getdents64", err)
			ents, perr := parseDirents(buf[:used], d.typeOf)
			if perr != nil {
				err = errors.Join(err, perr)
			}
			return ents, buf, err
		}
		if n <= 0 {
			break
		}
		used += n
	}
	ents, err := parseDirents(buf[:used], d.typeOf)
	return ents, buf, err
}

// getdents reads the next records into buf: one getdents64 call.
func (d *dirHandle) getdents(buf []byte) (int, error) {
	if d.readDirent != nil {
		return d.readDirent(d.fd, buf)
	}
	return syscall.ReadDirent(d.fd, buf)
}

// oPath is O_PATH, which package syscall does not name: an open that only
// locates the file (a symlink itself, with O_NOFOLLOW), for fstat.
const oPath = 0x200000

// direntBufSize is the smallest buffer list hands getdents: 8 KiB holds
// about 250 entries of a memory tree's names, so a directory of 100 topics
// is one call.
const direntBufSize = 8 << 10

// typeOf finds the type of an entry whose record said DT_UNKNOWN (file
// systems that do not store it), without following a symlink.
func (d *dirHandle) typeOf(name string) (fs.FileMode, error) {
	var st syscall.Stat_t
	var err error = syscall.ENOSYS
	if haveFstatat {
		err = fstatat(d.fd, name, &st, false) // retries EINTR itself
	}
	if err == syscall.ENOSYS {
		fd, oerr := retryEINTR(func() (int, error) {
			return syscall.Openat(d.fd, name, oPath|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		})
		if oerr != nil {
			return 0, oerr
		}
		err = syscall.Fstat(fd, &st)
		syscall.Close(fd)
	}
	if err != nil {
		return 0, err
	}
	return keyOf(&st).mode, nil
}

// parseDirents decodes getdents64 records (struct linux_dirent64: inode,
// offset, record length, type, NUL-terminated name), leaving out "." and
// "..". The names are cut from one allocation. typeOf answers for a record
// of unknown type; an entry that vanished meanwhile is left out, as
// os.File.ReadDir does. Any other typeOf failure ends the listing there:
// the entries before it are returned with the error, as os.File.ReadDir
// returns what it read, so the walk lists them with the watch doubted
// rather than skip the whole directory for one entry.
func parseDirents(b []byte, typeOf func(string) (fs.FileMode, error)) ([]dirent, error) {
	count, size := 0, 0
	for rest := b; len(rest) > 0; {
		reclen, name, ok := direntRecord(rest)
		if !ok {
			return nil, errBadDirent
		}
		rest = rest[reclen:]
		if !dotEntry(name) {
			count++
			size += len(name)
		}
	}
	// names never grows past its capacity, so the bytes a name was copied
	// to stay where they are and each string can point at them at once.
	names := make([]byte, 0, size)
	ents := make([]dirent, 0, count)
	for rest := b; len(rest) > 0; {
		reclen, name, _ := direntRecord(rest)
		typ := rest[direntTypeOff]
		rest = rest[reclen:]
		if dotEntry(name) {
			continue
		}
		start := len(names)
		names = append(names, name...)
		e := dirent{name: unsafe.String(&names[start], len(name)), typ: direntMode(typ)}
		if typ == syscall.DT_UNKNOWN {
			m, err := typeOf(e.name)
			if errors.Is(err, syscall.ENOENT) {
				continue // gone since the listing
			}
			if err != nil {
				return ents, err
			}
			e.typ = m
		}
		ents = append(ents, e)
	}
	return ents, nil
}

// The layout of a linux_dirent64 record.
const (
	direntLenOff  = 16 // after the 8-byte inode and the 8-byte offset
	direntTypeOff = 18
	direntNameOff = 19
)

func dotEntry(name string) bool { return name == "." || name == ".." }

// errBadDirent is a getdents answer that does not parse: never seen from a
// kernel, refused rather than read past.
var errBadDirent = errors.New("memory: malformed directory entry")

// direntRecord returns the length of the record at the start of b and its
// name (a view of b's bytes, valid while b is), or false when the record
// does not fit in b or has no NUL-terminated, non-empty name.
func direntRecord(b []byte) (int, string, bool) {
	if len(b) < direntNameOff+1 {
		return 0, "", false
	}
	reclen := int(binary.NativeEndian.Uint16(b[direntLenOff:]))
	if reclen < direntNameOff+1 || reclen > len(b) {
		return 0, "", false
	}
	name := b[direntNameOff:reclen]
	i := bytes.IndexByte(name, 0)
	if i <= 0 {
		return 0, "", false
	}
	return reclen, unsafe.String(&name[0], i), true
}

// direntMode is the type of a getdents record's d_type, as fs.FileMode
// bits (0 for a regular file).
func direntMode(t byte) fs.FileMode {
	switch t {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	default:
		return fs.ModeIrregular
	}
}

// holdsFD reports that keeping the handle costs a descriptor, which
// maxOpenDirs bounds.
func (d *dirHandle) holdsFD() bool { return true }

// close releases the descriptor, once: a second call must not close a
// number the process has since reused.
func (d *dirHandle) close() {
	if d.fd >= 0 {
		syscall.Close(d.fd)
		d.fd = -1
	}
}

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
		return openatName(dirfd, rel, flags|syscall.O_NOFOLLOW)
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

// openatName is syscall.Openat(dirfd, name, flags, 0) retried on EINTR,
// without allocating: the NUL-terminated name goes in a stack buffer
// (cName), as fstatat's does. It opens every file a cold scan reads, and
// syscall.Openat's BytePtrFromString was the scan's one allocation per
// file (docs/decisions/0616-cold-scan-allocations.md).
func openatName(dirfd int, name string, flags int) (int, error) {
	var buf [cNameBuf]byte
	p, err := cName(&buf, name)
	if err != nil {
		return -1, err
	}
	return retryEINTR(func() (int, error) {
		r, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags|syscall.O_LARGEFILE), 0, 0, 0)
		return sysResult(r, e)
	})
}

// sysResult is a raw open call's answer as (fd, error): -1 and the errno
// when it failed.
func sysResult(r uintptr, e syscall.Errno) (int, error) {
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

// cNameBuf is the size of the stack buffer cName fills: a name (or a path
// below a directory) shorter than it takes no allocation.
const cNameBuf = 256

// cName returns name as a NUL-terminated C string for a system call: in
// *buf, which must be all zero, when it fits, else in a new allocation
// (syscall.BytePtrFromString). A name holding a NUL byte is refused with
// EINVAL, as BytePtrFromString refuses it, never cut short at the NUL.
func cName(buf *[cNameBuf]byte, name string) (*byte, error) {
	if len(name) >= len(buf) {
		return syscall.BytePtrFromString(name)
	}
	if strings.IndexByte(name, 0) >= 0 {
		return nil, syscall.EINVAL
	}
	copy(buf[:], name) // the rest of buf is zero: the name ends in NUL
	return &buf[0], nil
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

// openat2Beneath opens rel below dirfd with openat2's RESOLVE_BENEATH and
// no symlinks; ENOSYS where openat2 is not wired up (haveOpenat2 false:
// sysOpenat2 is 0 there, restart_syscall on 386, which answers EINTR
// forever, and the retry loop would spin).
func openat2Beneath(dirfd int, rel string, flags int) (int, error) {
	if !haveOpenat2 {
		return -1, syscall.ENOSYS
	}
	// The path in a stack buffer: a tree whose directories outnumber
	// maxOpenDirs opens most of its files this way (decision 0616).
	var buf [cNameBuf]byte
	p, err := cName(&buf, rel)
	if err != nil {
		return -1, err
	}
	how := openHow{flags: uint64(flags | syscall.O_NOFOLLOW), resolve: resolveBeneath | resolveNoSymlinks | resolveNoMagiclinks}
	return retryEINTR(func() (int, error) {
		r, _, e := syscall.Syscall6(sysOpenat2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		return sysResult(r, e)
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
