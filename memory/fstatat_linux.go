//go:build linux && (amd64 || arm64)

package memory

import (
	"syscall"
	"unsafe"
)

// atSymlinkNoFollow is AT_SYMLINK_NOFOLLOW, the same on every Linux.
const atSymlinkNoFollow = 0x100

// fstatat stats name relative to the open directory dirfd: the kernel
// resolves one component instead of the whole absolute path, which is most
// of a stat's cost on the warm path. Package syscall exports Openat but
// not Fstatat on these architectures. It retries when a signal interrupts
// it (EINTR): one file's interrupted stat would otherwise fail a scan's
// stat of it or a whole directory's listing (typeOf).
func fstatat(dirfd int, name string, st *syscall.Stat_t, follow bool) error {
	// The NUL-terminated name goes in a stack buffer (cName, as
	// openatName's): this runs once per file on every warm scan, and
	// BytePtrFromString would allocate. A name holding a NUL byte is
	// refused, never cut short at it and another file stated.
	var buf [cNameBuf]byte
	p, err := cName(&buf, name)
	if err != nil {
		return err
	}
	flags := atSymlinkNoFollow
	if follow {
		flags = 0
	}
	for {
		_, _, e := syscall.Syscall6(sysFstatat, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
		switch e {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return e
	}
}

const haveFstatat = true
