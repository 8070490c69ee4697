package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestShortDir: whatever TMPDIR is, the directory exists, is private, its
// path leaves room for a socket name in sun_path, and it is gone when the
// test that asked for it ends; it lies under TMPDIR when that is short
// enough, else under /tmp.
func TestShortDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix socket paths")
	}
	long := filepath.Join(t.TempDir(), strings.Repeat("t", 80))
	if err := os.MkdirAll(long, 0o700); err != nil {
		t.Fatal(err)
	}
	// A short TMPDIR other than /tmp: the directory lies under it.
	short, err := os.MkdirTemp("/tmp", "sd")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(short)
	for _, tc := range []struct{ tmp, parent string }{{"", "/tmp"}, {long, "/tmp"}, {short, short}} {
		tmp := tc.tmp
		var d string
		t.Run("TMPDIR="+tmp, func(t *testing.T) {
			t.Setenv("TMPDIR", tmp)
			d = ShortDir(t)
			if filepath.Dir(d) != tc.parent {
				t.Errorf("ShortDir under TMPDIR=%q: %s, want it in %s", tmp, d, tc.parent)
			}
			fi, err := os.Stat(d)
			if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
				t.Fatalf("ShortDir: %v, %v; want a private directory", fi, err)
			}
			if sock := filepath.Join(d, "memrecall.sock"); len(sock) >= 104 || len(d) > ShortDirMax {
				t.Fatalf("ShortDir under TMPDIR=%q: %s (%d bytes) leaves no room for a socket", tmp, d, len(d))
			}
		})
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("ShortDir's %s outlived its test: %v", d, err)
		}
	}
}
