package gcpolicy

import (
	"runtime/debug"
	"testing"
)

// The one-shot setting applies until restored, gives way to a GOGC from
// the environment, and is undone by its restore.
func TestOneShot(t *testing.T) {
	for _, tc := range []struct {
		gogc string
		want int // the percentage between OneShot and restore
	}{
		{"", OneShotPercent},
		{"150", 123}, // GOGC set: the percentage found is left alone
		{"off", 123},
	} {
		t.Run("GOGC="+tc.gogc, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			orig := debug.SetGCPercent(123)
			defer debug.SetGCPercent(orig)
			restore := OneShot()
			if got := Percent(); got != tc.want {
				t.Errorf("after OneShot: GC percent %d, want %d", got, tc.want)
			}
			restore()
			if got := Percent(); got != 123 {
				t.Errorf("after restore: GC percent %d, want 123", got)
			}
		})
	}
}

// Percent reports an off collector as -1 and leaves it off.
func TestPercentOff(t *testing.T) {
	orig := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(orig)
	if got := Percent(); got != -1 {
		t.Errorf("Percent = %d, want -1", got)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("after Percent: GC percent %d, want -1 (unchanged)", got)
	}
}
