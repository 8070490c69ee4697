//go:build unix

package daemon

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestIdleExitWaitsForEventInFlight: the daemon is not idle while an event
// is handled, however long past its idle period that takes; the period
// counts from the event's end. (A first query on a cold tree longer than
// a short --idle was cut: TestIdleExit under -race on a loaded machine.)
// The event goes through Handle and is held inside it by its config
// file, a FIFO: each event reads a config it has not seen, and reading a
// FIFO waits for its writer. Opening the FIFO for writing returns once
// the event reads it, so the test knows the event is in flight; the
// test's write and close let it go on. It fails if Handle stops counting
// the event in flight.
func TestIdleExitWaitsForEventInFlight(t *testing.T) {
	clock, advance := fakeClock()
	opts := claudeOpts(t, copyTree(t))
	opts.IdleExit = time.Minute
	opts.Now = clock
	opts.ConfigPath = filepath.Join(t.TempDir(), "config.json")
	if err := syscall.Mkfifo(opts.ConfigPath, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	s := newServer(opts)
	defer s.shutdownSessions()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Handle(event("claude", "s", "UserPromptSubmit", prompt("deploy checklist")))
	}()
	w, err := os.OpenFile(opts.ConfigPath, os.O_WRONLY, 0) // returns once Handle reads it
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	advance(2 * time.Minute)
	got = append(got, s.sweep()) // in flight past the period
	w.WriteString(`{}`)
	w.Close()
	<-done
	got = append(got, s.sweep()) // just ended
	advance(2 * time.Minute)
	got = append(got, s.sweep()) // a period after its end
	if d := cmp.Diff([]bool{false, false, true}, got); d != "" {
		t.Errorf("idle (-want +got):\n%s", d)
	}
}
