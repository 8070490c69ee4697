//go:build unix

package hook

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/internal/testenv"
)

// serve listens on dir's socket and runs answer on each accepted
// connection (after reading nothing: the hook writes first and does not
// wait for a read), until the test ends.
func serve(t *testing.T, dir string, answer func(c net.Conn)) {
	t.Helper()
	l, err := net.Listen("unix", filepath.Join(dir, wire.SocketName))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { l.Close(); <-done })
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			answer(c)
			c.Close()
		}
	}()
}

// TestSocketClientFailsOpen runs the hook against daemons that answer
// well, badly or not at all: each bad case is the error the hook ignores,
// with nothing printed. Only "never answers" is about the deadline, so
// only it has a short budget; the others have a generous one, which a
// loaded machine cannot spend, and no case sleeps: the daemon that never
// answers waits for the hook to hang up.
func TestSocketClientFailsOpen(t *testing.T) {
	readReq := func(c net.Conn) wire.Request {
		var req wire.Request
		if err := wire.Read(c, wire.MaxRequestBytes, &req); err != nil {
			t.Errorf("daemon side: %v", err)
		}
		return req
	}
	const generous = time.Minute
	cases := []struct {
		name    string
		answer  func(c net.Conn)
		budget  time.Duration
		wantErr []error // any of them; none: no error
		wantOut string
	}{
		{name: "answers", answer: func(c net.Conn) {
			req := readReq(c)
			wire.Write(c, wire.Response{Version: wire.Version, Output: "agent=" + req.Agent})
		}, wantOut: "agent=claude"},
		{name: "closes at once", answer: func(c net.Conn) {}, wantErr: []error{ErrBadAnswer}},
		{name: "never answers", answer: func(c net.Conn) {
			readReq(c)
			// Until the hook gives up and closes its end (the read
			// deadline only ends a hook that never does).
			c.SetReadDeadline(time.Now().Add(generous))
			io.Copy(io.Discard, c)
		}, budget: 200 * time.Millisecond,
			// The read's deadline, or, on a machine so loaded that the
			// budget was spent before the dial, the hook's own check.
			wantErr: []error{os.ErrDeadlineExceeded, ErrTimeout}},
		{name: "frame too large", answer: func(c net.Conn) {
			readReq(c)
			var hdr [4]byte
			binary.BigEndian.PutUint32(hdr[:], wire.MaxResponseBytes+1)
			c.Write(hdr[:])
		}, wantErr: []error{wire.ErrFrameTooLarge}},
		{name: "not JSON", answer: func(c net.Conn) {
			readReq(c)
			c.Write([]byte{0, 0, 0, 3, 'x', 'y', 'z'})
		}, wantErr: []error{wire.ErrBadFrame}},
		{name: "short body", answer: func(c net.Conn) {
			readReq(c)
			c.Write([]byte{0, 0, 0, 9, '{', '}'})
		}, wantErr: []error{ErrBadAnswer}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := testenv.ShortDir(t)
			serve(t, dir, tc.answer)
			budget := tc.budget
			if budget == 0 {
				budget = generous
			}
			var out bytes.Buffer
			err := Run(Config{
				Agent: "claude", Stdin: strings.NewReader(`{"prompt":"x"}`), Stdout: &out,
				Dir: dir, Budget: budget,
			})
			ok := err == nil && len(tc.wantErr) == 0
			for _, want := range tc.wantErr {
				ok = ok || errors.Is(err, want)
			}
			if !ok {
				t.Fatalf("Run: %v, want one of %v", err, tc.wantErr)
			}
			if out.String() != tc.wantOut {
				t.Fatalf("printed %q, want %q", out.String(), tc.wantOut)
			}
		})
	}
}

// TestDialFullBacklog: a daemon that does not accept (stuck, or flooded)
// fills its listen queue; a connect then fails at once with EAGAIN, as
// net's does, so the hook dials again within its budget instead of
// blocking in connect past it.
func TestDialFullBacklog(t *testing.T) {
	sock := filepath.Join(testenv.ShortDir(t), wire.SocketName)
	lfd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(lfd)
	if err := syscall.Bind(lfd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(lfd, 0); err != nil {
		t.Fatal(err)
	}
	var conns []*os.File
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 64 {
		c, err := dial(sock)
		if err == nil {
			conns = append(conns, c)
			continue
		}
		if !errors.Is(err, syscall.EAGAIN) {
			t.Fatalf("dial into a full backlog: %v, want EAGAIN", err)
		}
		if len(conns) == 0 {
			t.Fatalf("the first dial failed too")
		}
		return
	}
	t.Fatalf("64 connects to a listener that never accepts all succeeded")
}

// TestDialSetsCloseOnExec: the socket must not leak into the daemon the
// hook starts (it would hold the connection open).
func TestDialSetsCloseOnExec(t *testing.T) {
	dir := testenv.ShortDir(t)
	serve(t, dir, func(c net.Conn) {})
	c, err := dial(filepath.Join(dir, wire.SocketName))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	flags, err := fcntl(int(c.Fd()), syscall.F_GETFD)
	if err != nil {
		t.Fatal(err)
	}
	if flags&syscall.FD_CLOEXEC == 0 {
		t.Fatalf("the hook's socket is inherited by children (FD_CLOEXEC unset)")
	}
}

func fcntl(fd, cmd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), 0)
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}

// TestDialMakesOneConnect: dial counts a connection only when connect(2)
// made one. A connect that says it is in progress (Linux never does for
// AF_UNIX) or that the queue is full fails the dial, which the hook takes
// for "no daemon answered"; the old wait for writability woke at once on
// the unconnected socket and counted it connected.
func TestDialMakesOneConnect(t *testing.T) {
	sock := filepath.Join(testenv.ShortDir(t), wire.SocketName)
	for _, errno := range []syscall.Errno{syscall.EINPROGRESS, syscall.EALREADY, syscall.EAGAIN, syscall.EINTR} {
		t.Run(errno.Error(), func(t *testing.T) {
			calls := 0
			c, err := dialWith(sock, func(int, syscall.Sockaddr) error { calls++; return errno })
			if err == nil {
				defer c.Close()
				t.Fatalf("dial after connect(2) said %v: connected", errno)
			}
			if !errors.Is(err, errno) || calls != 1 {
				t.Fatalf("dial: %v after %d connect calls, want %v after one", err, calls, errno)
			}
		})
	}
}
