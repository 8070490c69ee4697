package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain keeps every test of the command away from the real cache
// directory: the snapshot is off unless a test turns it on in a directory
// of its own.
//
// With MEMRECALL_TEST_AS_COMMAND=1 the test binary is the memrecall
// command itself: the hook tests start it as the daemon they spawn.
func TestMain(m *testing.M) {
	if os.Getenv(envAsCommand) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Setenv(envSnapshot, "off")
	os.Exit(m.Run())
}

func TestQueryWritesSnapshotInCacheDir(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	t.Setenv(envSnapshot, "")
	t.Setenv(envCacheDir, cache)
	var out, errOut strings.Builder
	if code := runQuery([]string{"deploy", "--project", "../../examples/memory/project", "--user", "../../examples/memory/user"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	ents, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 || !strings.HasSuffix(ents[0].Name(), ".snap") {
		t.Fatalf("cache holds %v, want one snapshot", ents)
	}
	fi, _ := ents[0].Info()
	di, _ := os.Stat(cache)
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v, dir %v", fi.Mode().Perm(), di.Mode().Perm())
	}

	// --no-snapshot: nothing written in a fresh cache directory.
	cache2 := filepath.Join(t.TempDir(), "cache2")
	t.Setenv(envCacheDir, cache2)
	if code := runQuery([]string{"deploy", "--no-snapshot", "--project", "../../examples/memory/project", "--user", "../../examples/memory/user"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if _, err := os.Stat(cache2); !os.IsNotExist(err) {
		t.Errorf("--no-snapshot wrote %s (%v)", cache2, err)
	}
}
