package recall

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/internal/readfloor"
	"github.com/memrecall/memrecall/telemetry"
)

// snapChildEnv names, in the environment of the test binary re-executed
// by BenchmarkSnapshotVsStatFloorProcess, the one side that child runs:
// its value is a JSON snapChild. TestMain runs it instead of the tests.
const snapChildEnv = "MEMRECALL_BENCH_SNAPCHILD"

// snapChild is what one child of BenchmarkSnapshotVsStatFloorProcess
// runs: the floor or a fresh engine with the snapshot, on one tree.
type snapChild struct {
	Side     string // "floor" or "fresh"
	Project  string
	User     string
	Snapshot string // the fresh engine's SnapshotDir
	Lang     string
	Topics   int
	Workers  int // the floor's
}

// snapChildResult is what a child measured, from just before its engine
// (or the floor's listing) started to its deterministic result, printed
// as one JSON line on its standard output.
type snapChildResult struct {
	Wall, CPU time.Duration
	// ShutdownCPU is the fresh side's CPU until its engine has shut down
	// (all its background work), as BenchmarkSnapshotVsStatFloor counts it.
	ShutdownCPU time.Duration
	Faults      int64  // minor page faults over the same span
	GCs         uint32 // collections the process ran before it printed
	Err         string
}

// runSnapChild runs the child side named in the environment, if any, and
// reports whether it did (TestMain then exits without running tests).
func runSnapChild() bool {
	spec := os.Getenv(snapChildEnv)
	if spec == "" {
		return false
	}
	var c snapChild
	res := snapChildResult{}
	if err := json.Unmarshal([]byte(spec), &c); err != nil {
		res.Err = err.Error()
	} else {
		res = c.run()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.GCs = ms.NumGC
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	return true
}

// run measures the child's side once.
func (c snapChild) run() snapChildResult {
	var r snapChildResult
	cpu0, faults0 := cputime.Usage()
	t0 := time.Now()
	switch c.Side {
	case "floor":
		if got := readfloor.Stat([]string{c.Project, c.User}, c.Workers); got != c.Topics {
			r.Err = fmt.Sprintf("floor stated %d files, want %d", got, c.Topics)
		}
		r.Wall = time.Since(t0)
		cpu, faults := cputime.Usage()
		r.CPU, r.ShutdownCPU, r.Faults = cpu-cpu0, cpu-cpu0, faults-faults0
	case "fresh":
		e := New(Options{ProjectDir: c.Project, UserDir: c.User, Selector: waitSelector, SnapshotDir: c.Snapshot})
		p := e.Query(context.Background(), benchQueryIn(gentree.Lang(c.Lang)))
		<-p.Published()
		inj := p.Initial(context.Background())
		r.Wall = time.Since(t0)
		cpu, faults := cputime.Usage()
		r.CPU, r.Faults = cpu-cpu0, faults-faults0
		e.Shutdown()
		r.ShutdownCPU = cputime.Now() - cpu0
		switch st := e.SnapshotStats(); {
		case inj.Phase != telemetry.PhaseFast || len(inj.Docs) == 0:
			r.Err = fmt.Sprintf("fresh query: phase %v, %d docs", inj.Phase, len(inj.Docs))
		case st.Loaded != c.Topics || st.Written != 0:
			r.Err = fmt.Sprintf("snapshot: %+v, want %d loaded and nothing written", st, c.Topics)
		}
	default:
		r.Err = "unknown side " + c.Side
	}
	return r
}

// BenchmarkSnapshotVsStatFloorProcess is BenchmarkSnapshotVsStatFloor
// with each side in a new process: the test binary re-executed, once per
// side and iteration (floor, then fresh), timed inside the child from
// just before the engine is made (the floor's listing) to the
// deterministic result. The in-process benchmark's fresh engines share
// one long-lived heap, whose collector and scavenger they pay and whose
// recycled pages they do not fault in; a child has a new heap, as a
// daemon or a `memrecall query` that starts does. Process start-up is
// outside both timings (decisions 0801 and 0810 measure it). The child's
// CPU is its own process's, all threads; x-statfloor-cpu compares the
// CPU to the result, fresh-shutdown-cpu-ms adds the engine's background
// work until Shutdown. fresh-gcs is the collections a fresh child ran in
// all (GODEBUG=gctrace=1 prints the same count).
func BenchmarkSnapshotVsStatFloorProcess(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 10000} {
		for _, lang := range benchLangs {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				opts, workers := snapshotBenchTree(b, lang, n)
				spec := snapChild{Project: opts.ProjectDir, User: opts.UserDir, Snapshot: opts.SnapshotDir,
					Lang: string(lang), Topics: n, Workers: workers}
				var floor, fresh snapChildResult
				var freshShutdown time.Duration
				var freshGCs, freshFaults int64
				for b.Loop() {
					for _, side := range []string{"floor", "fresh"} {
						spec.Side = side
						r := runSnapChildProcess(b, exe, spec)
						if side == "floor" {
							floor.Wall += r.Wall
							floor.CPU += r.CPU
							floor.Faults += r.Faults
							continue
						}
						fresh.Wall += r.Wall
						fresh.CPU += r.CPU
						freshShutdown += r.ShutdownCPU
						freshGCs += int64(r.GCs)
						freshFaults += r.Faults
					}
				}
				per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
				b.ReportMetric(per(floor.Wall), "statfloor-ms")
				b.ReportMetric(per(fresh.Wall), "fresh-ms")
				b.ReportMetric(per(floor.CPU), "statfloor-cpu-ms")
				b.ReportMetric(per(fresh.CPU), "fresh-cpu-ms")
				b.ReportMetric(per(freshShutdown), "fresh-shutdown-cpu-ms")
				b.ReportMetric(float64(freshGCs)/float64(b.N), "fresh-gcs")
				b.ReportMetric(float64(freshFaults)/float64(b.N), "fresh-faults")
				b.ReportMetric(float64(floor.Faults)/float64(b.N), "statfloor-faults")
				if floor.Wall > 0 {
					b.ReportMetric(float64(fresh.Wall)/float64(floor.Wall), "x-statfloor")
				}
				if floor.CPU > 0 && fresh.CPU > 0 {
					b.ReportMetric(float64(fresh.CPU)/float64(floor.CPU), "x-statfloor-cpu")
				}
			})
		}
	}
}

// runSnapChildProcess runs one child of BenchmarkSnapshotVsStatFloorProcess
// and returns what it measured; the benchmark fails on anything else.
func runSnapChildProcess(b *testing.B, exe string, spec snapChild) snapChildResult {
	js, err := json.Marshal(spec)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), snapChildEnv+"="+string(js))
	var out bytes.Buffer
	cmd.Stdout = &out
	if _, err := cputime.Run(cmd); err != nil {
		b.Fatalf("%s child: %v", spec.Side, err)
	}
	var r snapChildResult
	line := strings.TrimSpace(out.String())
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		b.Fatalf("%s child printed %q: %v", spec.Side, line, err)
	}
	if r.Err != "" {
		b.Fatalf("%s child: %s", spec.Side, r.Err)
	}
	return r
}
