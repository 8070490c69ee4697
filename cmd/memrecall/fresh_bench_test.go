package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
)

// BenchmarkFreshQuery times whole `memrecall query` processes, spawn to
// exit, as bench/peer's "fresh" cells do. Each iteration also spawns a Go
// program whose main does nothing (the Go runtime's own start, the
// floor), untimed, so the ratios compare the two in the same moments of
// the machine's load. The trees are gentree's, in English, Chinese,
// Japanese and mixed, at 200 and 1,000 topics. The query is deterministic
// only, without and with the persistent snapshot (written once before the
// timing). Reported per sub-benchmark, medians over the iterations:
//
//   - wall-ms, cpu-ms, faults: the query process (CPU is user + system,
//     every thread, from the kernel's accounting of the child; minor page
//     faults);
//   - empty-wall-ms, empty-cpu-ms: the empty Go program;
//   - wall-x, cpu-x: the query over the empty program.
//
// The allocations of a child process are not the benchmark's own, so
// BenchmarkQueryInProcess reports those. Both binaries are built the way
// the README installs memrecall (CGO_ENABLED=0, decision 0801).
//
//	go test -run '^$' -bench FreshQuery -benchtime 20x ./cmd/memrecall
//
// MEMRECALL_BENCH_QUERY, when set, is the query instead of gentree's
// (decision 0812's query of stop words: MEMRECALL_BENCH_QUERY=the). The
// query process takes GOGC from the environment like any other, so
// `GOGC=100 go test ...` times it at another GOGC (decision 0810).
func BenchmarkFreshQuery(b *testing.B) {
	tmp := b.TempDir()
	exe, empty := buildFresh(b, tmp)
	for _, n := range []int{200, 1000} {
		for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese, gentree.Japanese, gentree.Mixed} {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				freshTree(b, exe, empty, filepath.Join(tmp, fmt.Sprintf("%s-%d", lang, n)), lang, n)
			})
		}
	}
}

// freshTree writes one tree under dir and runs BenchmarkFreshQuery's
// sub-benchmarks on it: without the snapshot, and with it.
func freshTree(b *testing.B, exe, empty, dir string, lang gentree.Lang, n int) {
	project, user := writeBenchTree(b, dir, lang, n)
	g, _ := gentree.New(lang)
	query := g.Query()
	if v := os.Getenv("MEMRECALL_BENCH_QUERY"); v != "" {
		query = v
	}
	args := []string{"query", query, "--project", project, "--user", user}
	for _, snap := range []bool{false, true} {
		env := append(os.Environ(), envBaseURL+"=", envModel+"=")
		if snap {
			env = append(env, envCacheDir+"="+filepath.Join(dir, "cache"))
			// The first process writes the snapshot the timed ones read.
			if _, err := spawnTimed(exe, args, env); err != nil {
				b.Fatal(err)
			}
		} else {
			env = append(env, envSnapshot+"=off")
		}
		b.Run(fmt.Sprintf("snapshot=%v", snap), func(b *testing.B) {
			var q, e []cputime.Proc
			for b.Loop() {
				b.StopTimer()
				t, err := spawnTimed(empty, nil, env)
				if err != nil {
					b.Fatal(err)
				}
				e = append(e, t)
				b.StartTimer()
				t, err = spawnTimed(exe, args, env)
				if err != nil {
					b.Fatal(err)
				}
				q = append(q, t)
			}
			qw, qc, qf := medianProc(q)
			ew, ec, _ := medianProc(e)
			b.ReportMetric(qw, "wall-ms")
			b.ReportMetric(qc, "cpu-ms")
			b.ReportMetric(qf, "faults")
			b.ReportMetric(ew, "empty-wall-ms")
			b.ReportMetric(ec, "empty-cpu-ms")
			b.ReportMetric(qw/ew, "wall-x")
			b.ReportMetric(qc/ec, "cpu-x")
		})
	}
}

// BenchmarkQueryInProcess runs the query command inside the benchmark's
// process on the English trees: what the command itself costs and
// allocates once the process has started (a fresh engine and catalog per
// iteration, so every iteration scans the tree; the operating system's
// file cache is warm). With BenchmarkFreshQuery, the difference is what
// starting a process adds.
//
//	go test -run '^$' -bench QueryInProcess -benchtime 20x ./cmd/memrecall
func BenchmarkQueryInProcess(b *testing.B) {
	tmp := b.TempDir()
	g, _ := gentree.New(gentree.English)
	for _, n := range []int{200, 1000} {
		b.Run(fmt.Sprintf("topics=%d", n), func(b *testing.B) {
			project, user := writeBenchTree(b, filepath.Join(tmp, fmt.Sprintf("en-%d", n)), gentree.English, n)
			inProcessTree(b, []string{"query", g.Query(), "--project", project, "--user", user}, filepath.Join(tmp, fmt.Sprintf("cache-%d", n)))
		})
	}
}

// inProcessTree runs BenchmarkQueryInProcess's sub-benchmarks on one
// tree: without the snapshot, and with it (in cache).
func inProcessTree(b *testing.B, args []string, cache string) {
	for _, snap := range []bool{false, true} {
		b.Run(fmt.Sprintf("snapshot=%v", snap), func(b *testing.B) {
			b.Setenv(envBaseURL, "")
			b.Setenv(envModel, "")
			if snap {
				b.Setenv(envSnapshot, "")
				b.Setenv(envCacheDir, cache)
				if code := run(args, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			} else {
				b.Setenv(envSnapshot, "off")
			}
			b.ReportAllocs()
			for b.Loop() {
				if code := run(args, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// buildFresh builds memrecall and an empty Go program into dir, both
// with CGO_ENABLED=0 as the README installs memrecall.
func buildFresh(b *testing.B, dir string) (exe, empty string) {
	b.Helper()
	exe = filepath.Join(dir, "memrecall")
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return exe, buildEmptyGo(b, dir, "CGO_ENABLED=0")
}

// buildEmptyGo builds a Go program whose main does nothing into dir and
// returns its path: the floor of a Go process's start. env is added to
// the build's environment.
func buildEmptyGo(b *testing.B, dir string, env ...string) string {
	b.Helper()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(filepath.Join(dir, "empty.go"), []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", empty, "empty.go")
	build.Dir = dir
	build.Env = append(append(os.Environ(), "GO111MODULE=off"), env...)
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build empty: %v\n%s", err, out)
	}
	return empty
}

// writeBenchTree writes gentree's tree of lang and n topics under root
// and waits out memory's racy window, so that no process of the
// benchmark re-reads a file for being too young.
func writeBenchTree(b *testing.B, root string, lang gentree.Lang, n int) (project, user string) {
	b.Helper()
	project, user, _, err := gentree.Write(root, lang, n)
	if err != nil {
		b.Fatal(err)
	}
	gentree.WaitSettled(time.Now())
	return project, user
}

// spawnTimed runs name with args and env to its exit and returns its
// times (cputime.Run, as bench/peer times its fresh processes).
func spawnTimed(name string, args, env []string) (cputime.Proc, error) {
	c := exec.Command(name, args...)
	c.Env = env
	return cputime.Run(c)
}

// medianProc returns the median wall and CPU milliseconds of ts and their
// median minor faults.
func medianProc(ts []cputime.Proc) (wall, cpu, faults float64) {
	w, c, f := procPercentile(ts, 50)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return ms(w), ms(c), float64(f)
}

// procPercentile returns the pct-th percentile of ts's wall times, CPU
// times and minor faults, each sorted on its own: the element at rank
// len(ts)*pct/100, so 50 is the upper median and 99 of fewer than 100
// runs is the largest.
func procPercentile(ts []cputime.Proc, pct int) (wall, cpu time.Duration, faults int64) {
	w := make([]time.Duration, len(ts))
	c := make([]time.Duration, len(ts))
	f := make([]int64, len(ts))
	for i, t := range ts {
		w[i], c[i], f[i] = t.Wall, t.CPU, t.MinorFaults
	}
	slices.Sort(w)
	slices.Sort(c)
	slices.Sort(f)
	i := len(ts) * pct / 100
	return w[i], c[i], f[i]
}
