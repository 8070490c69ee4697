package daemon

import "errors"

// Errors of the instance lock (lock_unix.go, lock_other.go), declared once
// for every platform.
var (
	// ErrRunning: another daemon holds the lock of the runtime directory.
	ErrRunning = errors.New("daemon: another daemon is running")
	// ErrBadLock: the lock file a hook handed over is not the runtime
	// directory's lock, or does not hold the lock.
	ErrBadLock = errors.New("daemon: inherited lock is not the instance lock")
)
