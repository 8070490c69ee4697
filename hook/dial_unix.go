//go:build unix

package hook

import (
	"errors"
	"os"
	"syscall"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
)

// dial connects to the daemon's Unix socket at path, giving up at
// deadline, and returns the connection as a file whose Read, Write and
// SetDeadline go through the runtime's poller, as a net.Conn's do.
//
// It uses package syscall and os instead of net on purpose: linking net
// makes a default build on a machine with a C compiler link cgo and the C
// library, and the hook binary, which runs on every agent event, would be
// dynamically linked (decision 0820). The socket is non-blocking, so a
// connect the kernel cannot complete at once (a full backlog: EAGAIN) fails
// at once, as net's does, and the caller dials again; one that is in
// progress waits for the socket to become writable, within deadline.
func dial(path string, deadline time.Time) (*os.File, error) {
	fd, err := socket()
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	// A non-blocking descriptor is registered with the runtime's poller.
	f := os.NewFile(uintptr(fd), wire.SocketName)
	if err := connect(f, &syscall.SockaddrUnix{Name: path}, deadline); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// connect connects f's socket to sa within deadline.
func connect(f *os.File, sa syscall.Sockaddr, deadline time.Time) error {
	if err := f.SetDeadline(deadline); err != nil {
		return err // not pollable: there would be no deadline
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var cerr error
	started := false
	// Write calls the function until it returns true, waiting for the
	// socket to become writable (or the deadline) after each false.
	werr := rc.Write(func(fd uintptr) bool {
		if !started {
			started = true
			cerr = syscall.Connect(int(fd), sa)
		} else {
			// Woken after a connect in progress: its outcome is SO_ERROR.
			var v int
			v, cerr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_ERROR)
			if cerr == nil && v != 0 {
				cerr = syscall.Errno(v)
			}
		}
		switch cerr {
		case syscall.EINPROGRESS, syscall.EALREADY, syscall.EINTR:
			return false
		}
		return true
	})
	if werr != nil {
		return werr
	}
	if cerr != nil && !errors.Is(cerr, syscall.EISCONN) {
		return os.NewSyscallError("connect", cerr)
	}
	return nil
}
