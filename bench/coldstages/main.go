// Command coldstages splits the CPU samples of one cell of recall's
// BenchmarkColdVsFloor into the cold query's stages, each in read floors
// (the samples of one readfloor.Read pass = 1), from the call chains perf
// recorded. This VM has no hardware counters, so `perf stat` gives no
// instructions; perf's cpu-clock samples with call chains still say where
// the time of each side went, in the same process and the same minutes.
//
//	go test -c -o /tmp/recall.test ./recall
//	cd recall && perf record -F 4999 -e cpu-clock -g -o /tmp/cold.data \
//	  /tmp/recall.test -test.run '^$' \
//	  -test.bench 'BenchmarkColdVsFloor/^topics=1000$/^lang=en$' -test.benchtime 30x
//	perf script -i /tmp/cold.data -F tid,time,ip,sym | go run ./bench/coldstages
//
// Every sample before the first floor sample is set-up (writing the tree,
// the scans before the loop). After it, a sample belongs to the first of
// these its call chain matches: set-up (removing the tree), the engine's warm-up and shutdown after the answer
// (not in the benchmark's clock), the collector, the floors
// (readfloor.*), the candidates and the manifest, the scan (memory.*: its
// openat/read/close, its fstat, the walk, the text check, the parse, the
// rest), the ranking (score.*), the rest of recall, and the runtime's
// monitor thread and scheduler. Samples of the collector and the runtime
// are charged to the side (floor or engine) whose sample came last before
// them in time; with two cores that is an approximation, good to a few
// hundredths of a floor. A floor is the samples of readfloor.Read's
// open/read/close and listing plus its share of runtime samples: the
// benchmark runs Read and ReadStat once each per iteration, so the floor
// samples without ReadStat's fstat are halved.
//
// The decode pass (readfloor.Decode) is timed by the benchmark itself in
// thread CPU; see its decode-x-floor-cpu and bound-x-floor-cpu metrics.
// Its samples are filed after the answer, not in the floor, though
// readfloor holds it.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// sample is one perf sample: its time and the symbols of its call chain,
// leaf first.
type sample struct {
	t     float64
	stack []string
}

// gcFrames mark a sample as the collector's, wherever it was called from.
var gcFrames = []string{
	"runtime.gcBgMarkWorker", "runtime.gcAssistAlloc", "runtime.gcDrain",
	"runtime.bgsweep", "runtime.sweepone", "runtime.gcStart", "runtime.bgscavenge",
	"runtime.gcMarkDone", "runtime.gcMarkTermination", "runtime.markroot",
}

// classify names the stage of one call chain.
func classify(st []string) string {
	s := strings.Join(st, " ")
	has := func(subs ...string) bool {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
		return false
	}
	switch {
	case has("gentree.", "treeIn", "scanWorkers", "docTexts", "removeAll", "TestMain"):
		return "setup"
	case has("Engine).warm", "Index).Warm", "Engine).Shutdown", "readfloor.Decode", "decodeTime"):
		return "after"
	case has(gcFrames...):
		return "gc"
	case has("readfloor."):
		switch {
		case has("syscall.Fstat", "readfloor.statOpen"):
			return "floor-fstat"
		case has("readfloor.list"):
			return "floor-list"
		}
		return "floor-io"
	case has("recall.buildCandidates", "recentNonMatching", "model.", "Manifest"):
		return "cand"
	case has("memory."):
		switch {
		case has("readPrefix") && has("syscall.Fstat"):
			return "eng-fstat"
		case has("readPrefix") && has("syscall.", "openBeneath"):
			return "eng-io"
		case has("walker", "walkRoot", "watch", "dirHandle"):
			return "eng-walk"
		case has("normalize", "validUTF8", "checkText"):
			return "eng-check"
		case has("parse", "Parse", "frontmatter", "texts"):
			return "eng-parse"
		case has("score."):
			return "rank"
		}
		return "eng-other"
	case has("score."):
		return "rank"
	case has("recall."):
		return "recall"
	case has("runtime.sysmon"):
		return "sysmon"
	}
	return "sched"
}

// side is the side a stage belongs to; "" for the collector and the
// runtime, which take the side of the sample before them.
func side(stage string) string {
	switch {
	case strings.HasPrefix(stage, "floor"):
		return "floor"
	case stage == "setup", stage == "after":
		return stage
	case stage == "gc", stage == "sysmon", stage == "sched":
		return ""
	}
	return "engine"
}

// read parses `perf script -F tid,time,ip,sym`: a header line
// "TID TIME:" and one indented "ADDR SYMBOL" line per frame, samples
// separated by blank lines.
func read(r io.Reader) ([]sample, error) {
	var out []sample
	var cur *sample
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "":
			cur = nil
		case line[0] == ' ' || line[0] == '\t':
			if f := strings.Fields(line); cur != nil && len(f) >= 2 {
				cur.stack = append(cur.stack, f[1])
			}
		default:
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			t, err := strconv.ParseFloat(strings.TrimSuffix(f[1], ":"), 64)
			if err != nil {
				return nil, fmt.Errorf("sample header %q: %w", line, err)
			}
			out = append(out, sample{t: t})
			cur = &out[len(out)-1]
		}
	}
	return out, sc.Err()
}

func main() {
	samples, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "coldstages:", err)
		os.Exit(1)
	}
	sort.SliceStable(samples, func(i, j int) bool { return samples[i].t < samples[j].t })
	// The scans before the loop (the worker count, the texts to decode)
	// run on the catalog's goroutines, whose stacks do not show who
	// started them: everything before the first floor sample is set-up.
	start := len(samples)
	for i, s := range samples {
		if side(classify(s.stack)) == "floor" {
			start = i
			break
		}
	}
	n := map[string]int{"setup": start}
	last := "setup"
	for _, s := range samples[start:] {
		st := classify(s.stack)
		if sd := side(st); sd != "" {
			last = sd
			n[st]++
			continue
		}
		n[st+"@"+last]++
	}
	floorRT := n["gc@floor"] + n["sysmon@floor"] + n["sched@floor"]
	floor := float64(n["floor-io"]+n["floor-list"]+floorRT) / 2
	if floor == 0 {
		fmt.Fprintln(os.Stderr, "coldstages: no floor samples (was it BenchmarkColdVsFloor?)")
		os.Exit(1)
	}
	fmt.Printf("samples %d (set-up %d); one floor %.0f samples, of which listing %.2f, runtime %.2f; the fstat of ReadStat %.2f floor\n",
		len(samples), n["setup"], floor, float64(n["floor-list"])/2/floor, float64(floorRT)/2/floor, float64(n["floor-fstat"])/floor)
	rows := []struct {
		name string
		keys []string
	}{
		{"scan: openat/read/close", []string{"eng-io"}},
		{"scan: fstat", []string{"eng-fstat"}},
		{"scan: walk and watch", []string{"eng-walk"}},
		{"text check", []string{"eng-check"}},
		{"parse", []string{"eng-parse"}},
		{"scan: fold, sort, rest", []string{"eng-other"}},
		{"ranking", []string{"rank"}},
		{"candidates, manifest", []string{"cand"}},
		{"recall, rest", []string{"recall"}},
		{"collector", []string{"gc@engine"}},
		{"monitor thread (sysmon)", []string{"sysmon@engine"}},
		{"scheduler, rest", []string{"sched@engine"}},
	}
	total := 0
	for _, r := range rows {
		v := 0
		for _, k := range r.keys {
			v += n[k]
		}
		total += v
		fmt.Printf("%-26s %7d %6.2f\n", r.name, v, float64(v)/floor)
	}
	fmt.Printf("%-26s %7d %6.2f\n", "engine", total, float64(total)/floor)
	after := n["after"] + n["gc@after"] + n["sysmon@after"] + n["sched@after"]
	fmt.Printf("%-26s %7d %6.2f\n", "(after the answer)", after, float64(after)/floor)
}
