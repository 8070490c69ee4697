//go:build linux

package daemon

import (
	"io/fs"
	"syscall"
	"time"
)

// statIDs returns the inode, device and change time of fi where the
// platform exposes them.
func statIDs(fi fs.FileInfo) (ino, dev uint64, ctime time.Time) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, time.Time{}
	}
	return st.Ino, st.Dev, time.Unix(st.Ctim.Unix())
}
