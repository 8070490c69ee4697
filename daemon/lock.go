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
	// errNoLock: this system has no flock (lock_other.go); the daemon
	// does not run there (it also refuses every peer, see peerUID), and
	// the hook fails open.
	errNoLock = errors.New("daemon: instance locks are not supported on this system")
)

// Where Listen failed, so StartFailure can name the step without the
// error's text (which holds paths).
var (
	errRuntimeDir  = errors.New("daemon: runtime directory")
	errLock        = errors.New("daemon: lock")
	errStaleSocket = errors.New("daemon: stale socket")
	errListen      = errors.New("daemon: listen")
)
