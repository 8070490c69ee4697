//go:build unix

package readfloor

import "syscall"

// statBuf is one worker's stat buffer.
type statBuf struct{ st syscall.Stat_t }

// stat stats path with one system call and reports whether it succeeded.
func (b *statBuf) stat(path string) bool { return syscall.Stat(path, &b.st) == nil }

// statOpen stats the open file fd with one system call (fstat) and
// reports whether it succeeded.
func statOpen(b *statBuf, fd int, _ string) bool { return syscall.Fstat(fd, &b.st) == nil }
