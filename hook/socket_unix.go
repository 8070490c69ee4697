//go:build unix && !linux

package hook

import "syscall"

// socket makes a non-blocking, close-on-exec Unix stream socket. Without
// SOCK_CLOEXEC the flag is set under the fork lock, so that a concurrent
// exec does not inherit the descriptor.
func socket() (int, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}
