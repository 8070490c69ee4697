//go:build !unix

package daemon

import (
	"fmt"
	"os"
)

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
