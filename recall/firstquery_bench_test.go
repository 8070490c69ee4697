package recall

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
)

// BenchmarkFirstQueryAfterWarmed times a daemon-sized engine's first
// query once Warmed is closed, against its second (the same query, warm
// and steady), per iteration a new engine: CPU microseconds and minor page
// faults of the whole process while the query runs to its published
// result. The gap is what the first prompt after a daemon start pays
// beyond a steady query.
//
// The warm-up's end is a sub-benchmark: "release+prime" is what an engine
// does (decision 0811), "release" gives the pages back without priming
// (the warm-up before 0811), "keep" does neither (what 0811 compared
// against, in its table's "without FreeOSMemory" row).
//
//	go test -run '^$' -bench FirstQueryAfterWarmed -benchtime 10x ./recall
func BenchmarkFirstQueryAfterWarmed(b *testing.B) {
	ends := []struct {
		name string
		end  warmUpEnd
	}{{"release+prime", warmUpRelease}, {"release", warmUpReleaseOnly}, {"keep", warmUpKeep}}
	for _, n := range []int{1000} {
		for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese, gentree.Japanese} {
			for _, end := range ends {
				b.Run(fmt.Sprintf("topics=%d/lang=%s/warmup=%s", n, lang, end.name), func(b *testing.B) {
					firstQueryAfterWarmed(b, lang, n, end.end)
				})
			}
		}
	}
}

// firstQueryAfterWarmed is one sub-benchmark of
// BenchmarkFirstQueryAfterWarmed: n topics of lang, the warm-up ending
// with end.
func firstQueryAfterWarmed(b *testing.B, lang gentree.Lang, n int, end warmUpEnd) {
	project, user := trees.treeIn(b, lang, n)
	trees.settleIn(lang, n)
	q := benchQueryIn(lang)
	ask := func(e *Engine) (time.Duration, int64) {
		c0, f0 := cputime.Usage()
		p := e.Query(context.Background(), q)
		<-p.Published()
		p.End()
		c1, f1 := cputime.Usage()
		return c1 - c0, f1 - f0
	}
	var c1, c2 time.Duration
	var f1, f2 int64
	for b.Loop() {
		b.StopTimer()
		e := newEngine(Options{ProjectDir: project, UserDir: user}, 0, end)
		<-e.Warmed()
		b.StartTimer()
		c, f := ask(e)
		c1, f1 = c1+c, f1+f
		c, f = ask(e)
		c2, f2 = c2+c, f2+f
		b.StopTimer()
		e.Shutdown()
		b.StartTimer()
	}
	iters := float64(b.N)
	b.ReportMetric(float64(c1.Microseconds())/iters, "first-cpu-us")
	b.ReportMetric(float64(f1)/iters, "first-faults")
	b.ReportMetric(float64(c2.Microseconds())/iters, "second-cpu-us")
	b.ReportMetric(float64(f2)/iters, "second-faults")
}
