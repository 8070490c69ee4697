package wire

import (
	"os"
	"testing"
)

func chmod(p string, m os.FileMode) error { return os.Chmod(p, m) }

func mode(t *testing.T, p string) os.FileMode {
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}
