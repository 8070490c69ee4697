//go:build linux && !(amd64 || arm64)

package memory

import "syscall"

// fstatat is not wired up on this architecture; stat goes by path.
func fstatat(int, string, *syscall.Stat_t, bool) error { return syscall.ENOSYS }

const haveFstatat = false

// openat2 is not wired up on this architecture: openBeneath walks the path
// one component at a time instead.
const (
	sysOpenat2  = 0
	haveOpenat2 = false
)
