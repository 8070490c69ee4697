//go:build linux

package daemon

import (
	"fmt"
	"net"
	"syscall"
)

// peerUID returns the uid of the process at the other end of c, as the
// kernel recorded it when the connection was made (SO_PEERCRED).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, fmt.Errorf("daemon: peer credentials: %w", err)
	}
	var cred *syscall.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, fmt.Errorf("daemon: peer credentials: %w", err)
	}
	if serr != nil {
		return 0, fmt.Errorf("daemon: peer credentials: %w", serr)
	}
	return int(cred.Uid), nil
}
