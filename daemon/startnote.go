package daemon

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
)

// StartNoteName is the file in the runtime directory where a detached
// daemon that did not start says why: it has no terminal, and it must not
// write to the running daemon's log (decision 0722). One line, replaced
// by each start that fails and removed by one that listens; `memrecall
// status` shows it when no daemon runs.
const StartNoteName = "memrecall.start"

// maxStartNote bounds what ReadStartNote reads: a note is one short line.
const maxStartNote = 512

// StartFailure names why Listen failed, for the start note and logs: a
// kind, and the system error's name when there is one ("listen:
// permission denied"), never the error's text, which names paths. "" for
// nil and for ErrRunning: losing the start race to another daemon is no
// failure, and leaves no note (a lost race's note could land after the
// winner removed the old one, to be shown once the winner exits).
func StartFailure(err error) string {
	if err == nil || errors.Is(err, ErrRunning) {
		return ""
	}
	kind := "other"
	switch {
	case errors.Is(err, wire.ErrUnsafeDir):
		kind = "unsafe_dir"
	case errors.Is(err, errNoLock):
		kind = "no_lock"
	case errors.Is(err, ErrBadLock):
		kind = "bad_lock"
	case errors.Is(err, errListen):
		kind = "listen"
	case errors.Is(err, errStaleSocket):
		kind = "stale_socket"
	case errors.Is(err, errLock):
		kind = "lock"
	case errors.Is(err, errRuntimeDir):
		kind = "runtime_dir"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return kind + ": " + errno.Error()
	}
	return kind
}

// WriteStartNote replaces dir's start note with one line: the time, the
// process id and why (StartFailure's words). It writes only into a
// runtime directory that EnsureDir accepts, mode 0600 even when an
// older note had another.
func WriteStartNote(dir string, now time.Time, why string) error {
	if err := wire.EnsureDir(dir); err != nil {
		return err
	}
	line := fmt.Sprintf("%s pid %d did not start: %s\n", now.UTC().Format(time.RFC3339), os.Getpid(), why)
	path := filepath.Join(dir, StartNoteName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("daemon: start note: %w", err)
	}
	// O_TRUNC keeps an existing note's mode: make it 0600 whatever an
	// earlier mode or umask left, as OpenLog does for the log.
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.WriteString(line)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("daemon: start note: %w", err)
	}
	return nil
}

// ReadStartNote returns dir's start note without its newline, or "" when
// there is none. It refuses, with an error wrapping wire.ErrUnsafeDir, a
// directory or note that another user owns or that the group or others
// can access: in the /tmp fallback another user could have made the
// directory first and planted a note. The note is still outside text to
// its caller (a planted one could only be written before the directory
// was made private): print it through a terminal sanitiser.
func ReadStartNote(dir string) (string, error) {
	di, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("daemon: start note: %w", err)
	}
	if !di.IsDir() {
		return "", fmt.Errorf("daemon: start note: %w: not a directory", wire.ErrUnsafeDir)
	}
	if err := wire.CheckPrivate(di); err != nil {
		return "", fmt.Errorf("daemon: start note directory: %w", err)
	}
	f, err := os.Open(filepath.Join(dir, StartNoteName))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("daemon: start note: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("daemon: start note: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("daemon: start note: %w: not a regular file", wire.ErrUnsafeDir)
	}
	if err := wire.CheckPrivate(fi); err != nil {
		return "", fmt.Errorf("daemon: start note: %w", err)
	}
	buf := make([]byte, maxStartNote)
	n, err := f.Read(buf)
	if err != nil && n == 0 && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("daemon: start note: %w", err)
	}
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return line, nil
}

// RemoveStartNote removes dir's start note, if any: a daemon that listens
// makes an older failure moot.
func RemoveStartNote(dir string) error {
	err := os.Remove(filepath.Join(dir, StartNoteName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("daemon: start note: %w", err)
	}
	return nil
}
