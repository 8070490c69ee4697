//go:build linux && amd64

package memory

import "syscall"

const sysFstatat = syscall.SYS_NEWFSTATAT

// sysOpenat2 is openat2(2), 437 on every architecture that has it; package
// syscall predates it.
const sysOpenat2 = 437

const haveOpenat2 = true
