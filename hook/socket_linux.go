package hook

import "syscall"

// socket makes a non-blocking, close-on-exec Unix stream socket in one call.
func socket() (int, error) {
	return syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
}
