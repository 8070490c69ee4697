//go:build !unix

package daemon

import (
	"errors"
	"fmt"
	"os"
)

// errNoLock: this system has no flock; the daemon does not run here (it
// also refuses every peer, see peerUID), and the hook fails open.
var errNoLock = errors.New("daemon: instance locks are not supported on this system")

// lockFile fails where there is no flock (Windows): without the lock
// the daemon cannot be one instance per runtime directory, so it does not
// start.
func lockFile(path string) (*os.File, error) {
	return nil, fmt.Errorf("%w: %s", errNoLock, path)
}

// adoptLock fails as lockFile does; f is closed.
func adoptLock(f *os.File, path string) (*os.File, error) {
	f.Close()
	return nil, fmt.Errorf("%w: %w: %s", ErrBadLock, errNoLock, path)
}
