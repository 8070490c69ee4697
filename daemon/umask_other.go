//go:build !unix

package daemon

// umask does nothing where files have no Unix mode bits to mask.
func umask(int) int { return 0 }
