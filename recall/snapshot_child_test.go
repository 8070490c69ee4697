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
	"github.com/memrecall/memrecall/internal/gcpolicy"
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
	Side string // "floor" or "fresh"
	// GCDefault, on the fresh side, leaves the collector as the
	// environment sets it (Go's default: GOGC=100) instead of running
	// the one-shot policy (gcpolicy.OneShot) that a `memrecall query`
	// process runs.
	GCDefault bool
	Project   string
	User      string
	Snapshot  string // the fresh engine's SnapshotDir
	Lang      string
	Topics    int
	Workers   int // the floor's
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
	// GCPercent is the collector's percentage the child ran at (-1: off).
	GCPercent int
	Err       string
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
	if c.Side == "fresh" && !c.GCDefault {
		// As `memrecall query` does first (runQuery), before the timing.
		defer gcpolicy.OneShot()()
	}
	r.GCPercent = gcpolicy.Percent()
	// The query's text is the caller's, made before the timing as the
	// in-process benchmark makes it: generating it builds gentree's
	// vocabulary, which is no part of a query.
	var q Query
	if c.Side == "fresh" {
		q = benchQueryIn(gentree.Lang(c.Lang))
	}
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
		p := e.Query(context.Background(), q)
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
// side and iteration, timed inside the child from just before the engine
// is made (the floor's listing) to the deterministic result. The
// in-process benchmark's fresh engines share one long-lived heap, whose
// collector and scavenger they pay and whose recycled pages they do not
// fault in; a child has a new heap, as a daemon or a `memrecall query`
// that starts does. Process start-up is outside both timings (decisions
// 0801 and 0810 measure it). The child's CPU is its own process's, all
// threads.
//
// Each iteration runs three children: the floor, then a fresh engine
// with the one-shot collector policy that `memrecall query` runs
// (gcpolicy.OneShot: GOGC 400 unless the environment sets GOGC) and one
// without it (the environment's GOGC, Go's default 100 unless set: what
// the daemon runs), the two fresh ones in turns as to which goes first.
// x-statfloor and x-statfloor-cpu are the policy's child's, the figures
// the target is read from; fresh-gc-percent says which percentage it ran
// at. The -gcdefault metrics are the same engine's without the policy, so
// that the policy is not mistaken for a change of the engine (decision
// 0834). fresh-shutdown-cpu-ms adds the engine's background work until
// Shutdown; fresh-gcs is the collections a fresh child ran in all
// (GODEBUG=gctrace=1 prints the same count).
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
				var floor snapChildResult
				var fresh [2]freshSum // [0] the one-shot policy, [1] the environment's GOGC
				i := 0
				for b.Loop() {
					spec.Side, spec.GCDefault = "floor", false
					r := runSnapChildProcess(b, exe, spec)
					floor.Wall += r.Wall
					floor.CPU += r.CPU
					floor.Faults += r.Faults
					for k := range 2 {
						d := (k + i) % 2 // which goes first alternates
						spec.Side, spec.GCDefault = "fresh", d == 1
						fresh[d].add(runSnapChildProcess(b, exe, spec))
					}
					i++
				}
				per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1000 }
				b.ReportMetric(per(floor.Wall), "statfloor-ms")
				b.ReportMetric(per(floor.CPU), "statfloor-cpu-ms")
				b.ReportMetric(float64(floor.Faults)/float64(b.N), "statfloor-faults")
				for d, suffix := range []string{"", "-gcdefault"} {
					f := fresh[d]
					b.ReportMetric(per(f.Wall), "fresh-ms"+suffix)
					b.ReportMetric(per(f.CPU), "fresh-cpu-ms"+suffix)
					b.ReportMetric(per(f.ShutdownCPU), "fresh-shutdown-cpu-ms"+suffix)
					b.ReportMetric(float64(f.gcs)/float64(b.N), "fresh-gcs"+suffix)
					b.ReportMetric(float64(f.Faults)/float64(b.N), "fresh-faults"+suffix)
					b.ReportMetric(float64(f.GCPercent), "fresh-gc-percent"+suffix)
					if floor.Wall > 0 {
						b.ReportMetric(float64(f.Wall)/float64(floor.Wall), "x-statfloor"+suffix)
					}
					if floor.CPU > 0 && f.CPU > 0 {
						b.ReportMetric(float64(f.CPU)/float64(floor.CPU), "x-statfloor-cpu"+suffix)
					}
				}
			})
		}
	}
}

// freshSum adds up the fresh children of one policy; GCPercent is the
// last child's (every child of a run is given the same).
type freshSum struct {
	snapChildResult
	gcs int64
}

func (s *freshSum) add(r snapChildResult) {
	s.Wall += r.Wall
	s.CPU += r.CPU
	s.ShutdownCPU += r.ShutdownCPU
	s.Faults += r.Faults
	s.gcs += int64(r.GCs)
	s.GCPercent = r.GCPercent
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
