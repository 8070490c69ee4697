//go:build !unix

package hook

import "os"

// lockFile is a stub where flock does not exist: every hook that finds no
// daemon starts one, and the daemon's own lock settles the race.
type lockFile struct{}

type lockState int

const (
	lockHeld lockState = iota
	lockTaken
	lockUnusable
)

func openLock(string, bool) *lockFile        { return &lockFile{} }
func (*lockFile) try() (*os.File, lockState) { return nil, lockUnusable }
func (*lockFile) handOff()                   {}
func (l *lockFile) close()                   {}
