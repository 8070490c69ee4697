package daemon

import (
	"errors"
	"fmt"
)

// ErrForeignPeer: a process of another user connected to the socket.
var ErrForeignPeer = errors.New("daemon: peer belongs to another user")

// checkPeer admits a peer only when its uid is the daemon's own. The
// socket's mode and directory already keep others out; this is the check
// that still holds if they were loosened.
func checkPeer(peer, self int) error {
	if peer != self {
		return fmt.Errorf("%w: uid %d", ErrForeignPeer, peer)
	}
	return nil
}
