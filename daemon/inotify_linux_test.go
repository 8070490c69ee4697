package daemon

import "syscall"

// inotifyRefused reports why the kernel refuses this user a new inotify
// instance now (EMFILE at the per-user limit, shared with every process
// of the user), or nil when it gives one.
func inotifyRefused() error {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		return err
	}
	return syscall.Close(fd)
}
