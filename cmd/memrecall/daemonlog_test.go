package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/internal/testenv"
)

// TestLosingDaemonLeavesLogAlone: a detached daemon that finds the
// instance lock taken exits without opening the running daemon's log, so
// it can neither append to it nor rotate it to LogName.1 (which the next
// rotation would overwrite). The log here is one byte short of the limit:
// any line written by the loser would rotate it.
func TestLosingDaemonLeavesLogAlone(t *testing.T) {
	dir := isolatedDaemonDir(t)
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

// TestDetachedDaemonSaysWhyItDidNotStart: a detached daemon has no
// terminal and may not write the running daemon's log, so when Listen
// fails it leaves the reason in the runtime directory's start note, which
// `memrecall status` shows when no daemon runs: a Listen refused (here a
// socket path longer than the system allows). The note names no path. A
// lost race is no failure and leaves no note: written after the winner
// removed the old one, it would be shown once the winner exits.
func TestDetachedDaemonSaysWhyItDidNotStart(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(daemon.EnvConfig, filepath.Join(home, "none.json"))
	t.Setenv(envSnapshot, "off")
	short := testenv.ShortDir(t)
	long := filepath.Join(short, strings.Repeat("n", 120))
	for _, tc := range []struct {
		name     string
		dir      string
		winner   bool // another daemon holds the lock
		code     int
		why      string
		inStatus bool
	}{
		{"lost race", short, true, 0, "", false}, // no failure: another daemon runs
		{"socket path too long", long, false, 1, "did not start: listen: ", true},
	} {
		t.Setenv(wire.EnvDir, tc.dir)
		if tc.winner {
			w, err := daemon.Listen(daemon.Options{Dir: tc.dir})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
		}
		var out, errOut bytes.Buffer
		if code := runDaemon([]string{"--detached"}, &out, &errOut); code != tc.code {
			t.Errorf("%s: exit %d, want %d (stderr %q)", tc.name, code, tc.code, errOut.String())
		}
		note, err := daemon.ReadStartNote(tc.dir)
		if tc.why == "" {
			if err != nil || note != "" {
				t.Errorf("%s: start note %q (%v), want none", tc.name, note, err)
			}
			continue
		}
		if err != nil || !strings.Contains(note, tc.why) || strings.Contains(note, short) {
			t.Errorf("%s: start note %q (%v), want %q and no path", tc.name, note, err, tc.why)
		}
		if !tc.inStatus {
			continue
		}
		out.Reset()
		runStatus(nil, &out, &errOut)
		if want := "no daemon running\nlast start: " + note + "\n"; out.String() != want {
			t.Errorf("%s: status %q, want %q", tc.name, out.String(), want)
		}
	}
}

// TestStatusStartNoteIsSafe: with no daemon, status prints the start note
// with its terminal escapes escaped, and --json prints JSON, not text.
func TestStatusStartNoteIsSafe(t *testing.T) {
	dir := testenv.ShortDir(t)
	t.Setenv(wire.EnvDir, dir)
	note := "2026-11-30T18:00:00Z pid 1 did not start: \x1b]0;owned\a\x1b[2J"
	if err := os.WriteFile(filepath.Join(dir, daemon.StartNoteName), []byte(note+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := runStatus(nil, &out, &errOut); code != 1 {
		t.Errorf("status exit %d, want 1", code)
	}
	want := "no daemon running\nlast start: 2026-11-30T18:00:00Z pid 1 did not start: \\x1b]0;owned\\a\\x1b[2J\n"
	if out.String() != want {
		t.Errorf("status %q, want %q", out.String(), want)
	}
	out.Reset()
	if code := runStatus([]string{"--json"}, &out, &errOut); code != 1 {
		t.Errorf("status --json exit %d, want 1", code)
	}
	var got noDaemon
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got != (noDaemon{LastStart: note}) {
		t.Errorf("status --json %q (%v), want JSON with running false and the note", out.String(), err)
	}
}

// TestListeningDaemonRemovesStartNote: any daemon that listens, detached
// or in the foreground, makes an older start's failure moot and removes
// its note (decision 0722), so status does not show it after this daemon
// exits.
func TestListeningDaemonRemovesStartNote(t *testing.T) {
	dir := isolatedDaemonDir(t)
	if err := daemon.WriteStartNote(dir, time.Now(), "listen: permission denied"); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	// In the foreground, exiting when idle: no event comes.
	if code := runDaemon([]string{"--idle", "1ms"}, &out, &errOut); code != 0 {
		t.Fatalf("daemon exit %d, stderr %q", code, errOut.String())
	}
	if note, err := daemon.ReadStartNote(dir); err != nil || note != "" {
		t.Errorf("after a daemon listened: start note %q (%v), want none", note, err)
	}
}

// isolatedDaemonDir makes a runtime directory with a short name (a
// socket path has a length limit), removed when the test ends, and points
// the daemon at it with a fresh HOME, no config file and no snapshot.
func isolatedDaemonDir(t *testing.T) string {
	t.Helper()
	dir := testenv.ShortDir(t)
	home := t.TempDir()
	t.Setenv(wire.EnvDir, dir)
	t.Setenv("HOME", home)
	t.Setenv(daemon.EnvConfig, filepath.Join(home, "none.json"))
	t.Setenv(envSnapshot, "off")
	return dir
}
