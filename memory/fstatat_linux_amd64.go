//go:build linux && amd64

package memory

import "syscall"

const sysFstatat = syscall.SYS_NEWFSTATAT
