//go:build unix

package hook

import (
	"os"
	"syscall"
)

// lockFile is the hook's handle on the runtime directory's lock file, the
// same file whose flock makes the daemon one instance (wire.LockName).
type lockFile struct{ f *os.File }

type lockState int

const (
	// lockHeld: another process holds the lock (a daemon runs or starts).
	lockHeld lockState = iota
	// lockTaken: this hook holds it now.
	lockTaken
	// lockUnusable: there is no lock to coordinate with.
	lockUnusable
)

// openLock opens the lock file at path, creating it only when create is
// set (a hook that may not start a daemon must not leave files behind).
// It never fails: a lock that cannot be opened is lockUnusable at try.
func openLock(path string, create bool) *lockFile {
	flag := os.O_RDWR
	if create {
		flag |= os.O_CREATE
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return &lockFile{}
	}
	return &lockFile{f: f}
}

// try takes the lock without blocking. On lockTaken the caller either
// hands the locked file on (handOff) or lets close release it.
func (l *lockFile) try() (*os.File, lockState) {
	if l.f == nil {
		return nil, lockUnusable
	}
	if err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if err == syscall.EWOULDBLOCK {
			return nil, lockHeld
		}
		return nil, lockUnusable
	}
	return l.f, lockTaken
}

// handOff gives up this handle's ownership of the open file: the daemon it
// is passed to keeps the lock (a flock belongs to the open file, so it
// survives this process's exit as long as the daemon holds the file).
func (l *lockFile) handOff() { l.f = nil }

// close closes the file, releasing the lock if this hook took it and did
// not hand it off.
func (l *lockFile) close() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
