package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// LogName is the detached daemon's log file in the runtime directory; the
// previous one, after a rotation, is LogName + ".1".
const LogName = "memrecall.log"

// DefaultLogLimit bounds the log file: when a write would take it past
// this size, it becomes LogName.1 (replacing the older one) and a new file
// starts, so the log never holds more than twice this.
const DefaultLogLimit = 1 << 20

// LogFile is the size-bounded, rotated log of a detached daemon: mode 0600
// in the runtime directory (itself 0700). It is an io.Writer for a
// slog handler; what reaches it is only what the daemon logs, which is
// counts, kinds, durations and hashes (see docs/decisions/0712-daemon.md,
// "Privacy"). Safe for concurrent use.
type LogFile struct {
	path  string
	limit int64

	mu   sync.Mutex
	f    *os.File
	size int64
}

// OpenLog opens (creating or appending to) the log file of dir. A limit of
// zero or less is DefaultLogLimit.
func OpenLog(dir string, limit int64) (*LogFile, error) {
	if limit <= 0 {
		limit = DefaultLogLimit
	}
	l := &LogFile{path: filepath.Join(dir, LogName), limit: limit}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

// open opens the current file for appending, 0600 whatever umask or an
// earlier mode left (a log file someone else could read is made private).
func (l *LogFile) open() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("daemon: log: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("daemon: log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("daemon: log: %w", err)
	}
	l.f, l.size = f, fi.Size()
	return nil
}

// Write appends p, rotating first when p would take the file past the
// limit. A record longer than the limit is still written whole, to a fresh
// file.
func (l *LogFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return 0, errors.New("daemon: log closed")
	}
	if l.size > 0 && l.size+int64(len(p)) > l.limit {
		if err := l.rotate(); err != nil {
			return 0, err
		}
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return n, err
}

func (l *LogFile) rotate() error {
	l.f.Close()
	l.f = nil
	if err := os.Rename(l.path, l.path+".1"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("daemon: log rotate: %w", err)
	}
	return l.open()
}

// Close closes the file.
func (l *LogFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
