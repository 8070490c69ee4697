package memory

import (
	"context"
	"fmt"
	"runtime/debug"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/internal/readfloor"
)

// BenchmarkColdScanVsFloor compares a new catalog's scan with the read
// floor on the cold engine's trees (internal/gentree: en, zh, ja, mixed),
// in the same iterations, by wall time and by the process's CPU time,
// which moves less with the machine's load. heap=fresh returns the heap to
// the kernel before each floor (debug.FreeOSMemory), so the scan's memory
// is new pages as in a fresh process; heap=reused keeps it, as a daemon
// that scans again does. x-floor-cpu and x-floor-wall are scan ÷ floor.
// (docs/decisions/0611-cold-scan-text.md)
func BenchmarkColdScanVsFloor(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese, gentree.Japanese, gentree.Mixed} {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				coldScanVsFloor(b, lang, n)
			})
		}
	}
}

// coldScanVsFloor is one tree of BenchmarkColdScanVsFloor; the tree is
// written only when the pattern selects it.
func coldScanVsFloor(b *testing.B, lang gentree.Lang, n int) {
	project, user, _, err := gentree.Write(b.TempDir(), lang, n)
	if err != nil {
		b.Fatal(err)
	}
	roots := Roots{Project: project, User: user}
	res, err := Scan(context.Background(), roots)
	if err != nil {
		b.Fatal(err)
	}
	workers := res.Stats.Workers
	for _, fresh := range []bool{true, false} {
		heap := map[bool]string{true: "fresh", false: "reused"}[fresh]
		b.Run("heap="+heap, func(b *testing.B) {
			var floorCPU, scanCPU, floorWall, scanWall time.Duration
			for b.Loop() {
				if fresh {
					debug.FreeOSMemory()
				}
				c0, t0 := cputime.Now(), time.Now()
				if got := readfloor.Read([]string{project, user}, workers, ReadLimit); got != n {
					b.Fatalf("floor read %d files, want %d", got, n)
				}
				c1, t1 := cputime.Now(), time.Now()
				r, err := Scan(context.Background(), roots)
				c2, t2 := cputime.Now(), time.Now()
				if err != nil || len(r.Docs) != n {
					b.Fatalf("scan: %d documents, %v", len(r.Docs), err)
				}
				floorCPU += c1 - c0
				scanCPU += c2 - c1
				floorWall += t1.Sub(t0)
				scanWall += t2.Sub(t1)
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
			b.ReportMetric(ms(floorWall), "floor-ms")
			b.ReportMetric(ms(scanWall), "scan-ms")
			b.ReportMetric(float64(scanWall)/float64(floorWall), "x-floor-wall")
			if floorCPU > 0 {
				b.ReportMetric(float64(scanCPU)/float64(floorCPU), "x-floor-cpu")
			}
		})
	}
}
