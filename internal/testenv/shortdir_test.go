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
// test that asked for it ends.
func TestShortDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix socket paths")
	}
	long := filepath.Join(t.TempDir(), strings.Repeat("t", 80))
	if err := os.MkdirAll(long, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tmp := range []string{"", long} {
		var d string
		t.Run("TMPDIR="+tmp, func(t *testing.T) {
			t.Setenv("TMPDIR", tmp)
			d = ShortDir(t)
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
