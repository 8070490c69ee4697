package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/daemon/wire"
)

// TestLosingDaemonLeavesLogAlone: a detached daemon that finds the
// instance lock taken exits without opening the running daemon's log, so
// it can neither append to it nor rotate it to LogName.1 (which the next
// rotation would overwrite). The log here is one byte short of the limit:
// any line written by the loser would rotate it.
func TestLosingDaemonLeavesLogAlone(t *testing.T) {
	dir, err := os.MkdirTemp("", "mrl") // short: the socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	home := t.TempDir()
	t.Setenv(wire.EnvDir, dir)
	t.Setenv("HOME", home)
	t.Setenv(daemon.EnvConfig, filepath.Join(home, "none.json"))
	t.Setenv(envSnapshot, "off")
	winner, err := daemon.Listen(daemon.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer winner.Close()
	logPath := filepath.Join(dir, daemon.LogName)
	before := bytes.Repeat([]byte("x"), daemon.DefaultLogLimit-1)
	if err := os.WriteFile(logPath, before, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := runDaemon([]string{"--detached"}, &out, &errOut); code != 0 || out.Len()+errOut.Len() != 0 {
		t.Fatalf("losing detached daemon: exit %d, stdout %q, stderr %q; want 0 and nothing", code, out.String(), errOut.String())
	}
	if _, err := os.Stat(logPath + ".1"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the losing daemon rotated the running daemon's log (%s.1: %v)", daemon.LogName, err)
	}
	if after, err := os.ReadFile(logPath); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the losing daemon changed the running daemon's log (%d bytes, was %d; %v)", len(after), len(before), err)
	}
}
