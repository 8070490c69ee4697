//go:build unix

package memory

import (
	"os"
	"syscall"
)

// openNoFollow opens path for reading, refusing a symbolic link.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}

// private reports that fi belongs to the effective user and that no one
// else may read or write it.
func private(fi os.FileInfo) bool {
	if fi.Mode().Perm()&0o077 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}
