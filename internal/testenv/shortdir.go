package testenv

import (
	"os"
	"runtime"
	"testing"
)

// ShortDirMax is the longest path ShortDir returns: room is left for a
// socket's file name within sun_path, which holds 104 bytes on the BSDs
// and macOS and 108 on Linux.
const ShortDirMax = 64

// ShortDir returns a new private directory, removed when the test ends,
// whose path is short enough for a Unix socket inside it: t.TempDir can
// be long, and so can TMPDIR (macOS's is). It lies under os.TempDir when
// that is short enough, else under /tmp. It fails the test if neither
// gives a path of at most ShortDirMax bytes.
func ShortDir(t testing.TB) string {
	t.Helper()
	parent := os.TempDir()
	// MkdirTemp appends a separator, the prefix and up to 10 digits.
	const name = len("/mr") + 10
	if len(parent)+name > ShortDirMax && runtime.GOOS != "windows" {
		parent = "/tmp"
	}
	d, err := os.MkdirTemp(parent, "mr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if len(d) > ShortDirMax {
		t.Fatalf("testenv: no short directory for a socket: %s is %d bytes, over %d", d, len(d), ShortDirMax)
	}
	return d
}
