//go:build unix

package daemon

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/memrecall/memrecall/daemon/wire"
)

// lockFile takes the exclusive, non-blocking flock that makes the daemon
// one instance per runtime directory. The kernel drops it when the process
// dies, so a crashed daemon leaves no stale lock (only, perhaps, a stale
// socket file, which the next lock holder removes).
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errLock, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("%w: %w", errLock, err)
	}
	return f, nil
}

// adoptLock keeps f, a lock file inherited from the hook that started this
// daemon, as the instance lock, after checking that it is the file at path
// and that its open file holds the flock (flock on an open file that
// already holds it succeeds at once; on any other open file of path it
// would fail while the hook's lock is held). On error f is closed.
func adoptLock(f *os.File, path string) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %w", ErrBadLock, err)
	}
	pi, err := os.Stat(path)
	if err != nil || !os.SameFile(fi, pi) {
		f.Close()
		return nil, fmt.Errorf("%w: not %s", ErrBadLock, wire.LockName)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("%w: %w", ErrBadLock, err)
	}
	return f, nil
}
