//go:build !linux

package daemon

import (
	"errors"
	"net"
)

// peerUID is only implemented on Linux; elsewhere every peer is refused,
// so the daemon fails closed (and the hook open).
func peerUID(c *net.UnixConn) (int, error) {
	return 0, errors.New("daemon: peer credentials are not supported on this system")
}
