//go:build unix

package hook_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memrecall/memrecall/daemon/wire"
)

// TestNoStartWaitsForStartingDaemon: a hook that may not start a daemon
// (--no-start) but finds the lock held — another hook's daemon is on its
// way — waits for that daemon instead of giving up at once.
func TestNoStartWaitsForStartingDaemon(t *testing.T) {
	opts := options(t)
	lock, err := os.OpenFile(filepath.Join(opts.Dir, wire.LockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var out string
	go func() {
		defer close(done)
		out, err = run(t, opts.Dir, "claude", query, nil)
	}()
	// The "starting daemon" listens only now, with the lock it was given.
	if err := starter(t, opts)(lock); err != nil {
		t.Fatal(err)
	}
	<-done
	if err != nil || !strings.Contains(out, "deploy-checklist.md") {
		t.Fatalf("--no-start hook while a daemon starts: %q, %v; want its memory", out, err)
	}
}
