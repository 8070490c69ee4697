//go:build linux && arm64

package memory

import "syscall"

const sysFstatat = syscall.SYS_FSTATAT
