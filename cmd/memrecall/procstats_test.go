package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/internal/cputime"
)

// TestProcPercentile: each column is sorted on its own, and the rank is
// len*pct/100 (the upper median; p99 of fewer than 100 runs is the
// largest), as the process benchmarks report them.
func TestProcPercentile(t *testing.T) {
	ms := time.Millisecond
	runs := []cputime.Proc{
		{Wall: 5 * ms, CPU: 1 * ms, MinorFaults: 30},
		{Wall: 1 * ms, CPU: 4 * ms, MinorFaults: 10},
		{Wall: 3 * ms, CPU: 2 * ms, MinorFaults: 50},
		{Wall: 2 * ms, CPU: 5 * ms, MinorFaults: 20},
	}
	type row struct {
		Wall, CPU time.Duration
		Faults    int64
	}
	for _, c := range []struct {
		pct  int
		want row
	}{
		{0, row{1 * ms, 1 * ms, 10}},
		{50, row{3 * ms, 4 * ms, 30}},
		{99, row{5 * ms, 5 * ms, 50}},
	} {
		var got row
		got.Wall, got.CPU, got.Faults = procPercentile(runs, c.pct)
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("p%d (-want +got):\n%s", c.pct, d)
		}
	}
	if w, c, f := medianProc(runs); w != 3 || c != 4 || f != 30 {
		t.Errorf("medianProc: %v ms, %v ms, %v faults; want 3, 4, 30", w, c, f)
	}
}
