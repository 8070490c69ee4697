package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/internal/testenv"
)

// TestStartFailure: why Listen failed is told by kind and the system
// error's name, never by the error's text, which names paths.
func TestStartFailure(t *testing.T) {
	const path = "/home/someone/secret-project/memrecall.sock"
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		// Losing the start race is no failure: no kind, so no note.
		{"lost race", ErrRunning, ""},
		{"lost race, wrapped", fmt.Errorf("daemon: %w", ErrRunning), ""},
		{"listen refused", fmt.Errorf("%w: %w", errListen, &os.SyscallError{Syscall: "bind " + path, Err: syscall.EACCES}), "listen: permission denied"},
		{"stale socket", fmt.Errorf("%w: %w", errStaleSocket, &os.PathError{Op: "remove", Path: path, Err: syscall.EPERM}), "stale_socket: operation not permitted"},
		{"lock", fmt.Errorf("%w: %w", errLock, &os.PathError{Op: "open", Path: path, Err: syscall.EROFS}), "lock: read-only file system"},
		{"unsafe directory", fmt.Errorf("%w: %w", errRuntimeDir, fmt.Errorf("%w: owned by uid 7", wire.ErrUnsafeDir)), "unsafe_dir"},
		{"runtime directory", fmt.Errorf("%w: %w", errRuntimeDir, &os.PathError{Op: "mkdir", Path: path, Err: syscall.ENOSPC}), "runtime_dir: no space left on device"},
		{"bad lock", fmt.Errorf("%w: not %s", ErrBadLock, path), "bad_lock"},
		{"no flock here", fmt.Errorf("%w: %s", errNoLock, path), "no_lock"},
		{"anything else", errors.New("daemon: " + path), "other"},
	} {
		got := StartFailure(tc.err)
		if got != tc.want {
			t.Errorf("%s: StartFailure = %q, want %q", tc.name, got, tc.want)
		}
		if strings.Contains(got, "secret-project") {
			t.Errorf("%s: %q holds the path", tc.name, got)
		}
	}
}

// TestListenFailureNamed: a real Listen failure (a socket path longer than
// the system allows) is named by its step and errno, without the path.
func TestListenFailureNamed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no daemon on Windows (no flock)")
	}
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	_, err := Listen(Options{Dir: dir})
	if err == nil {
		t.Fatal("Listen on a 120-byte directory name succeeded; want the socket path refused")
	}
	got := StartFailure(err)
	if !strings.HasPrefix(got, "listen: ") || strings.Contains(got, "ddd") {
		t.Errorf("StartFailure(%v) = %q, want listen: and an errno name, no path", err, got)
	}
}

// TestStartNote: the note is one line, private, replaced by the next
// failure and removed by a start that listens.
func TestStartNote(t *testing.T) {
	dir := testenv.ShortDir(t)
	if got, err := ReadStartNote(dir); err != nil || got != "" {
		t.Fatalf("no note yet: %q, %v; want \"\", nil", got, err)
	}
	at := time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)
	var got []string
	for _, why := range []string{"listen: permission denied", "lock: read-only file system"} {
		if err := WriteStartNote(dir, at, why); err != nil {
			t.Fatal(err)
		}
		note, err := ReadStartNote(dir)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, note)
	}
	pid := fmt.Sprint(os.Getpid())
	want := []string{
		"2026-11-30T18:00:00Z pid " + pid + " did not start: listen: permission denied",
		"2026-11-30T18:00:00Z pid " + pid + " did not start: lock: read-only file system",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
	fi, err := os.Stat(filepath.Join(dir, StartNoteName))
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("note mode %v, want 0600", m)
	}
	if err := RemoveStartNote(dir); err != nil {
		t.Fatal(err)
	}
	if note, err := ReadStartNote(dir); err != nil || note != "" {
		t.Errorf("after RemoveStartNote: %q, %v; want nothing", note, err)
	}
	if err := RemoveStartNote(dir); err != nil {
		t.Errorf("removing no note: %v", err)
	}
}

// TestReadStartNoteRefusesForeignNote: in the /tmp fallback another user
// may make the runtime directory first and plant a note, so ReadStartNote
// refuses a directory or note that group or others can reach, or that
// another user owns, and reads nothing from it.
func TestReadStartNoteRefusesForeignNote(t *testing.T) {
	at := time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		spoil func(dir, note string) error
	}{
		{"directory open to others", func(dir, _ string) error { return os.Chmod(dir, 0o755) }},
		{"note open to others", func(_, note string) error { return os.Chmod(note, 0o644) }},
		{"directory owned by another user", func(dir, _ string) error { return os.Chown(dir, 4242, 4242) }},
		{"note owned by another user", func(_, note string) error { return os.Chown(note, 4242, 4242) }},
	} {
		dir := testenv.ShortDir(t)
		if err := WriteStartNote(dir, at, "listen: permission denied"); err != nil {
			t.Fatal(err)
		}
		if note, err := ReadStartNote(dir); err != nil || note == "" {
			t.Fatalf("%s: before spoiling: %q, %v", tc.name, note, err)
		}
		if err := tc.spoil(dir, filepath.Join(dir, StartNoteName)); err != nil {
			t.Logf("%s: skipped: %v", tc.name, err) // chown needs root
			continue
		}
		note, err := ReadStartNote(dir)
		if !errors.Is(err, wire.ErrUnsafeDir) || note != "" {
			t.Errorf("%s: ReadStartNote = %q, %v; want nothing and wire.ErrUnsafeDir", tc.name, note, err)
		}
	}
}

// TestStartNoteMadePrivate: an existing note keeps its mode through
// O_TRUNC, so WriteStartNote makes it 0600 itself.
func TestStartNoteMadePrivate(t *testing.T) {
	dir := testenv.ShortDir(t)
	path := filepath.Join(dir, StartNoteName)
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteStartNote(dir, time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC), "listen: permission denied"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("rewritten note mode %v, want 0600", m)
	}
	if note, err := ReadStartNote(dir); err != nil || !strings.HasSuffix(note, "did not start: listen: permission denied") {
		t.Errorf("rewritten note %q, %v", note, err)
	}
}
