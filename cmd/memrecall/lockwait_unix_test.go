//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

// waitLockFree waits until no process holds the runtime directory's lock
// at path (a stopped daemon holds it until it has shut down, which
// `daemon --stop` does not wait for), for at most 10 s. A missing lock
// file is free.
func waitLockFree(tb testing.TB, path string) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	for end := time.Now().Add(10 * time.Second); ; {
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			return
		}
		if time.Now().After(end) {
			tb.Fatalf("%s still locked after 10 s", path)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
