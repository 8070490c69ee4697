//go:build !unix

package readfloor

import "os"

// statBuf is one worker's stat buffer (none is needed here).
type statBuf struct{}

// stat stats path and reports whether it succeeded; without Unix stat
// buffers it takes os.Stat's path.
func (*statBuf) stat(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// statOpen stands for a stat of the open file: without Unix descriptors
// it stats the path.
func statOpen[F any](b *statBuf, _ F, path string) bool { return b.stat(path) }
