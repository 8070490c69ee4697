//go:build !unix

package memory

import (
	"fmt"
	"os"
)

// openNoFollow opens path for reading, refusing a symbolic link. Without
// O_NOFOLLOW the link is refused by an Lstat first; a file swapped for a
// link between the two calls is still only read, never written.
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: %w", path, os.ErrPermission)
	}
	return os.Open(path)
}

// private is true: where there are no Unix owners and modes (Windows),
// the file's privacy is the cache directory's, which the system makes the
// user's own (%LocalAppData%), and os reports every file as 0666 or 0444.
func private(os.FileInfo) bool { return true }
