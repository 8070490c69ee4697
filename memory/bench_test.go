package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/readfloor"
)

// benchSizes are the tree sizes of spec §7.4.
var benchSizes = []int{200, 500, 1000, 5000, 10000}

// words make generated bodies look like prose to the parser.
var words = strings.Fields(`deploy checklist migration rollback canary latency
dashboard postgres failover pool retry idempotent callback payment review
release freeze owner incident follow-up runbook kubernetes cluster context
prefer terse answers commit message imperative title body reason staging`)

// genTree writes n topics of about 1.5 KB, three quarters in the project
// scope, with distinct mtimes.
func genTree(b *testing.B, dir string, n int) Roots {
	b.Helper()
	roots := Roots{Project: filepath.Join(dir, "project"), User: filepath.Join(dir, "user")}
	types := []string{"user", "feedback", "project", "reference"}
	var sb strings.Builder
	for i := range n {
		root := roots.Project
		if i%4 == 3 {
			root = roots.User
		}
		sb.Reset()
		fmt.Fprintf(&sb, "---\nname: Topic %d %s\ndescription: %s %s and %s\ntype: %s\n---\n",
			i, words[i%len(words)], words[(i*7)%len(words)], words[(i*3)%len(words)], words[(i*5)%len(words)], types[i%4])
		for k := 0; sb.Len() < 1500; k++ {
			sb.WriteString(words[(i*13+k*31)%len(words)])
			if k%12 == 11 {
				sb.WriteString(".\n")
			} else {
				sb.WriteByte(' ')
			}
		}
		p := filepath.Join(root, fmt.Sprintf("topic-%05d.md", i))
		if i < 4 {
			if err := os.MkdirAll(root, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		mt := base.Add(-time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			b.Fatal(err)
		}
	}
	return roots
}

// BenchmarkScan measures, per tree size and in one run: the raw floor
// (list every directory, then open/read/close every file with the scan's
// worker count and nothing else), a cold scan (a fresh catalog each
// iteration: every file read and parsed), and a warm scan of the unchanged
// tree (a stat per file). Read cold/floor from the same run.
func BenchmarkScan(b *testing.B) {
	workers := NewCatalog(Roots{}).workers
	for _, n := range benchSizes {
		roots := genTree(b, b.TempDir(), n)
		b.Run(fmt.Sprintf("topics=%d/floor", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got := readFloor(roots, workers); got != n {
					b.Fatalf("floor read %d files, want %d", got, n)
				}
			}
			perTopic(b, n)
		})
		b.Run(fmt.Sprintf("topics=%d/cold", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := Scan(context.Background(), roots)
				if err != nil || len(res.Docs) != n {
					b.Fatalf("cold scan: %d docs, %v", len(res.Docs), err)
				}
			}
			perTopic(b, n)
		})
		b.Run(fmt.Sprintf("topics=%d/warm", n), func(b *testing.B) {
			c := NewCatalog(roots)
			// The files were written a moment ago; a real memory tree is
			// older than the racy window, so scan as if a minute later.
			c.now = func() time.Time { return time.Now().Add(time.Minute) }
			if _, err := c.Scan(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := c.Scan(context.Background())
				if err != nil || len(res.Docs) != n || res.Stats.Read != 0 {
					b.Fatalf("warm scan: %d docs, %d read, %v", len(res.Docs), res.Stats.Read, err)
				}
			}
			perTopic(b, n)
		})
	}
}

func perTopic(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/topic")
}

// readFloor is the least any scan must do (see package readfloor), with
// the scan's read limit as buffer. It returns the files read.
func readFloor(roots Roots, workers int) int {
	return readfloor.Read([]string{roots.Project, roots.User}, workers, ReadLimit)
}

func BenchmarkParse(b *testing.B) {
	data := []byte(topic("reference", "Deploy checklist", strings.Repeat("deploy the canary and watch latency ", 40)))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parse(data, true, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanVsFloor runs the floor, a cold scan and a warm scan back to
// back inside every iteration and reports their times and ratios, so the
// ratios hold even when other work on the machine shifts absolute times
// between sub-benchmarks.
func BenchmarkScanVsFloor(b *testing.B) {
	workers := NewCatalog(Roots{}).workers
	for _, n := range benchSizes {
		roots := genTree(b, b.TempDir(), n)
		b.Run(fmt.Sprintf("topics=%d", n), func(b *testing.B) {
			warm := NewCatalog(roots)
			warm.now = func() time.Time { return time.Now().Add(time.Minute) } // see BenchmarkScan
			if _, err := warm.Scan(context.Background()); err != nil {
				b.Fatal(err)
			}
			var floor, cold, hot time.Duration
			for b.Loop() {
				t0 := time.Now()
				readFloor(roots, workers)
				t1 := time.Now()
				if _, err := Scan(context.Background(), roots); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if res, err := warm.Scan(context.Background()); err != nil || res.Stats.Read != 0 {
					b.Fatalf("warm scan read %d files, %v", res.Stats.Read, err)
				}
				floor += t1.Sub(t0)
				cold += t2.Sub(t1)
				hot += time.Since(t2)
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
			b.ReportMetric(ms(floor), "floor-ms")
			b.ReportMetric(ms(cold), "cold-ms")
			b.ReportMetric(ms(hot), "warm-ms")
			b.ReportMetric(float64(cold)/float64(floor), "cold/floor")
			b.ReportMetric(float64(hot)/float64(floor), "warm/floor")
		})
	}
}
