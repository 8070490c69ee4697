package recall

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/internal/readfloor"
	"github.com/memrecall/memrecall/telemetry"
)

// snapPart limits BenchmarkSnapshotVsStatFloor's loop to one side, for
// instruction counts under valgrind (which cannot tell the two apart when
// both run): "floor", "fresh" or "" for both. See docs/performance.md.
var snapPart = flag.String("snapshot.part", "", `BenchmarkSnapshotVsStatFloor: time only "floor" or "fresh"`)

// snapDirs are the snapshot directories the benchmarks made; TestMain
// removes them. Benchmarks never use the real cache directory.
var snapDirs []string

// BenchmarkSnapshotVsStatFloor is issue 12's snapshot target: a fresh
// engine (new catalog, new index, as in a new process) with a snapshot of
// the unchanged tree, Query → fast result, against the walk-and-stat floor
// (list the roots, stat every file, the scan's worker count) measured in
// the same iteration. x-statfloor is the ratio of the sums; the goal is at
// most 1.5. The snapshot is written once before the timed loop, after the
// tree has settled (files inside memory's racy window are never
// persisted). The cpu metrics are the process's CPU time (user + system,
// getrusage) of the same two sides, the fresh side until its engine has
// shut down (all its background work included): on a loaded machine they
// count the work where the wall times also count the wait for a core.
func BenchmarkSnapshotVsStatFloor(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range benchLangs {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				opts, workers := snapshotBenchTree(b, lang, n)
				project, user := opts.ProjectDir, opts.UserDir
				q := benchQueryIn(lang)
				b.ReportAllocs()
				var floor, fresh, floorCPU, freshCPU time.Duration
				for b.Loop() {
					c0 := cputime.Now()
					t0 := time.Now()
					if *snapPart != "fresh" {
						if got := readfloor.Stat([]string{project, user}, workers); got != n {
							b.Fatalf("floor stated %d files, want %d", got, n)
						}
					}
					t1 := time.Now()
					c1 := cputime.Now()
					floorCPU += c1 - c0
					if *snapPart == "floor" {
						floor += t1.Sub(t0)
						continue
					}
					e := New(opts)
					p := e.Query(context.Background(), q)
					<-p.published
					inj := p.Initial(context.Background())
					t2 := time.Now()
					if inj.Phase != telemetry.PhaseFast || len(inj.Docs) == 0 {
						b.Fatalf("fresh query: phase %v, %d docs", inj.Phase, len(inj.Docs))
					}
					e.Shutdown()
					freshCPU += cputime.Now() - c1
					if st := e.SnapshotStats(); st.Loaded != n || st.Written != 0 {
						b.Fatalf("snapshot: %+v, want %d loaded and nothing written", st, n)
					}
					floor += t1.Sub(t0)
					fresh += t2.Sub(t1)
				}
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
				b.ReportMetric(ms(floor), "statfloor-ms")
				b.ReportMetric(ms(fresh), "fresh-ms")
				b.ReportMetric(ms(floorCPU), "statfloor-cpu-ms")
				b.ReportMetric(ms(freshCPU), "fresh-cpu-ms")
				// A ratio only where both sides ran (-snapshot.part times
				// one side alone) and the CPU clock read something.
				if floor > 0 && fresh > 0 {
					b.ReportMetric(float64(fresh)/float64(floor), "x-statfloor")
				}
				if floorCPU > 0 && freshCPU > 0 {
					b.ReportMetric(float64(freshCPU)/float64(floorCPU), "x-statfloor-cpu")
				}
			})
		}
	}
}

// snapshotBenchTree sets up one tree of the snapshot benchmarks: the
// generated tree of n topics in lang, settled, and a snapshot of it in a
// new directory, written once by one scan and its write with nothing else
// running (so that what the setup does does not depend on how a query and
// a warm-up interleave). It returns the fresh engines' options and the
// floor's worker count (the scan's).
func snapshotBenchTree(b *testing.B, lang gentree.Lang, n int) (Options, int) {
	project, user := trees.treeIn(b, lang, n)
	trees.settleIn(lang, n)
	workers := scanWorkers(b, project, user)
	dir, err := os.MkdirTemp("", "recall-bench-snap-")
	if err != nil {
		b.Fatal(err)
	}
	snapDirs = append(snapDirs, dir)
	opts := Options{ProjectDir: project, UserDir: user, Selector: waitSelector, SnapshotDir: dir}
	setup := opts
	setup.NoWarmUp = true
	e := New(setup)
	if _, err := e.cat.Scan(context.Background()); err != nil {
		b.Fatal(err)
	}
	e.Shutdown()
	if st := e.SnapshotStats(); st.Written != 1 {
		b.Fatalf("snapshot not written: %+v", st)
	}
	return opts, workers
}

// BenchmarkEngineMemory reports what a daemon-sized engine holds once its
// warm-up has indexed the tree: heap per topic (live heap after a GC, over
// the heap before the engine) and the process's resident memory against
// the tree's bytes (issue 12's goal: RSS at most 4× the tree at 10,000
// topics). The RSS is the whole benchmark process's, so run this
// benchmark alone for that figure.
func BenchmarkEngineMemory(b *testing.B) {
	for _, lang := range benchLangs {
		b.Run(fmt.Sprintf("topics=10000/lang=%s", lang), func(b *testing.B) {
			const n = 10000
			project, user := trees.treeIn(b, lang, n)
			trees.settleIn(lang, n)
			var heap, rss float64
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				debug.FreeOSMemory()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				b.StartTimer()
				e := New(Options{ProjectDir: project, UserDir: user})
				<-e.warmed
				b.StopTimer()
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				heap = float64(after.HeapAlloc) - float64(before.HeapAlloc)
				rss = residentBytes(b)
				runtime.KeepAlive(e)
				e.Shutdown()
				b.StartTimer()
			}
			bytes := float64(trees.bytes[treeKey{lang, n}])
			b.ReportMetric(heap/n, "heap-B/topic")
			b.ReportMetric(rss/1e6, "rss-MB")
			b.ReportMetric(bytes/1e6, "tree-MB")
			b.ReportMetric(rss/bytes, "x-tree")
		})
	}
}

// residentBytes reads the process's resident set size (Linux); 0
// elsewhere.
func residentBytes(b *testing.B) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				b.Fatal(err)
			}
			return float64(kb) * 1024
		}
	}
	return 0
}

// BenchmarkColdSnapshotQueue is what a snapshot costs a cold query on the
// query's path: in each iteration a cold engine (new catalog, new index)
// with an empty SnapshotDir, Query → deterministic result, and the same
// without a SnapshotDir, in turn (each side first in every other
// iteration, so that neither always inherits the other's garbage and
// background work). The first scan of the one with a
// directory queues the snapshot's write before its result exists
// (decision 0805); the write itself runs after, on the writer's
// goroutine, and is not timed (each engine is shut down, its write on
// disk, before the next side starts). scan-ms is the query's wait for the
// tree (Trace.Scan), with and without the directory; x-snapdir the ratio
// of the summed times to the result, x-snapdir-cpu the same in process
// CPU (until the result).
func BenchmarkColdSnapshotQueue(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("topics=%d/lang=%s", n, gentree.English), func(b *testing.B) {
			project, user := trees.treeIn(b, gentree.English, n)
			trees.settleIn(gentree.English, n)
			q := benchQueryIn(gentree.English)
			b.ReportAllocs()
			var with, without, withCPU, withoutCPU, withScan, withoutScan time.Duration
			side := func(dir string) (time.Duration, time.Duration, time.Duration) {
				e, tr, wall, cpu := coldQuery(b, Options{ProjectDir: project, UserDir: user, Selector: waitSelector, SnapshotDir: dir}, q, n)
				e.Shutdown()
				if dir != "" {
					if st := e.SnapshotStats(); st.Written != 1 {
						b.Fatalf("snapshot: %+v, want one written", st)
					}
				}
				return wall, cpu, tr.Scan
			}
			first := true // the sides take turns at running first
			for b.Loop() {
				dir, err := os.MkdirTemp("", "recall-bench-snap-")
				if err != nil {
					b.Fatal(err)
				}
				snapDirs = append(snapDirs, dir)
				var w, wc, ws, o, oc, os_ time.Duration
				if first {
					w, wc, ws = side(dir)
					o, oc, os_ = side("")
				} else {
					o, oc, os_ = side("")
					w, wc, ws = side(dir)
				}
				first = !first
				with, withCPU, withScan = with+w, withCPU+wc, withScan+ws
				without, withoutCPU, withoutScan = without+o, withoutCPU+oc, withoutScan+os_
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
			b.ReportMetric(ms(with), "snapdir-ms")
			b.ReportMetric(ms(without), "nosnap-ms")
			b.ReportMetric(ms(withScan), "snapdir-scan-ms")
			b.ReportMetric(ms(withoutScan), "nosnap-scan-ms")
			b.ReportMetric(float64(with)/float64(without), "x-snapdir")
			if withoutCPU > 0 {
				b.ReportMetric(float64(withCPU)/float64(withoutCPU), "x-snapdir-cpu")
			}
		})
	}
}
