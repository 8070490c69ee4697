//go:build unix

package daemon

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrRunning: another daemon holds the lock of the runtime directory.
var ErrRunning = errors.New("daemon: another daemon is running")

// lockFile takes the exclusive, non-blocking flock that makes the daemon
// one instance per runtime directory. The kernel drops it when the process
// dies, so a crashed daemon leaves no stale lock (only, perhaps, a stale
// socket file, which the next lock holder removes).
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("daemon: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("daemon: lock: %w", err)
	}
	return f, nil
}
