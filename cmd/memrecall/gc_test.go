package main

import (
	"runtime/debug"
	"testing"
)

// The query command's collector setting applies while it runs, gives way
// to a GOGC from the environment, and is undone on return.
func TestOneShotGC(t *testing.T) {
	for _, tc := range []struct {
		gogc string
		want int // the percentage while the command runs
	}{
		{"", oneShotGCPercent},
		{"150", 123}, // GOGC set: the percentage found is left alone
	} {
		t.Run("GOGC="+tc.gogc, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			orig := debug.SetGCPercent(123)
			defer debug.SetGCPercent(orig)
			restore := oneShotGC()
			if got := gcPercent(); got != tc.want {
				t.Errorf("while running: GC percent %d, want %d", got, tc.want)
			}
			restore()
			if got := gcPercent(); got != 123 {
				t.Errorf("after restore: GC percent %d, want 123", got)
			}
		})
	}
}

// gcPercent reads the collector's percentage (SetGCPercent is the only
// way), leaving it unchanged.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}
