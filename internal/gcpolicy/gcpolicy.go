// Package gcpolicy holds the collector setting of memrecall's one-shot
// processes, in one place: `memrecall query` runs it, and so does the
// child of recall's BenchmarkSnapshotVsStatFloorProcess, which stands for
// that process. A benchmark of a fresh process measures the collector
// that process runs; a second copy of the number could drift from the
// command's.
//
// Which processes run it, and why the daemon does not, is decided in
// docs/decisions/0834-one-gc-policy-for-fresh-processes.md; the number
// itself in docs/decisions/0801-start-up-cost.md.
package gcpolicy

import (
	"os"
	"runtime/debug"
)

// OneShotPercent is the GOGC of a one-shot process (one query, then
// exit) whose environment does not set GOGC.
const OneShotPercent = 400

// OneShot sets the collector's percentage to OneShotPercent unless the
// environment sets GOGC, and returns the function that restores the old
// one (for callers in the same process: tests). One query, then exit:
// the heap is mostly the tree's text, live until the end, so a
// collection frees little and costs a mark phase; at five times the live
// heap instead of twice, a 1,000-topic query runs no collection.
func OneShot() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(OneShotPercent)
	return func() { debug.SetGCPercent(old) }
}

// Percent is the collector's percentage in force (-1: off). Reading it
// takes two calls of debug.SetGCPercent, the only way; it is left as
// found.
func Percent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}
