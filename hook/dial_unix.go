//go:build unix

package hook

import (
	"os"
	"syscall"

	"github.com/memrecall/memrecall/daemon/wire"
)

// dial connects to the daemon's Unix socket at path and returns the
// connection as a file whose Read, Write and SetDeadline go through the
// runtime's poller, as a net.Conn's do.
//
// It uses package syscall and os instead of net on purpose: linking net
// makes a default build on a machine with a C compiler link cgo and the C
// library, and the hook binary, which runs on every agent event, would be
// dynamically linked (decision 0820).
//
// The socket is non-blocking, and a connect on a Unix stream socket never
// waits: the kernel links the two ends at once, or fails at once — with
// EAGAIN when the daemon's listen queue is full (a daemon stuck or
// flooded), with ENOENT or ECONNREFUSED when none listens. Every failure
// is "no daemon answered", and the hook dials again within its budget or
// fails open. So dial makes one connect(2) and does not wait for a connect
// in progress, which Linux never reports for AF_UNIX (and the BSDs'
// synchronous unp_connect neither): a wait on writability, had it been
// reached, woke at once on the unconnected socket and counted it connected
// (decision 0920).
func dial(path string) (*os.File, error) {
	return dialWith(path, syscall.Connect)
}

// dialWith is dial with connect as its connect(2), the seam through which
// tests answer as the kernel does not.
func dialWith(path string, connect func(fd int, sa syscall.Sockaddr) error) (*os.File, error) {
	fd, err := socket()
	if err != nil {
		return nil, os.NewSyscallError("socket", err)
	}
	if err := connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, os.NewSyscallError("connect", err)
	}
	// A non-blocking descriptor is registered with the runtime's poller.
	return os.NewFile(uintptr(fd), wire.SocketName), nil
}
