package main

import (
	"os"

	"github.com/memrecall/memrecall/recall"
)

// The environment variables of the persistent snapshot: MEMRECALL_SNAPSHOT=off
// turns it off, MEMRECALL_CACHE_DIR moves it from the user cache directory.
const (
	envSnapshot = "MEMRECALL_SNAPSHOT"
	envCacheDir = "MEMRECALL_CACHE_DIR"
)

// snapshotDir returns the engine's Options.SnapshotDir: "" when off (the
// flag or the environment), else MEMRECALL_CACHE_DIR or the user cache
// directory. Without a cache directory the snapshot is simply off.
func snapshotDir(off bool) string {
	if off || os.Getenv(envSnapshot) == "off" {
		return ""
	}
	if dir := os.Getenv(envCacheDir); dir != "" {
		return dir
	}
	dir, err := recall.DefaultSnapshotDir()
	if err != nil {
		return ""
	}
	return dir
}
