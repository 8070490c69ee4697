package recall

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
)

// BenchmarkWarmQueryEngine is a warm engine's query, Query → deterministic
// result published (the catalog's revalidation, ranking, publishing), on
// an engine whose warm-up froze its index against one whose index is the
// live term map (NoWarmUp, then Warm over the same tree: what an engine
// held before decision 0122), both queried in every iteration, so that
// x-live (frozen CPU over live CPU) holds under any load. Issue 12 /
// decision 0125; score's BenchmarkWarmQuery is the same comparison
// without the engine around the index.
func BenchmarkWarmQueryEngine(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese, gentree.Japanese, gentree.Korean, gentree.Mixed} {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				project, user := trees.treeIn(b, lang, n)
				trees.settleIn(lang, n)
				frozen := New(Options{ProjectDir: project, UserDir: user})
				defer frozen.Shutdown()
				<-frozen.Warmed()
				live := New(Options{ProjectDir: project, UserDir: user, NoWarmUp: true})
				defer live.Shutdown()
				res, err := live.scan()
				if err != nil {
					b.Fatal(err)
				}
				live.index.Warm(res.Docs)
				q := benchQueryIn(lang)
				ask := func(e *Engine) time.Duration {
					t0 := cputime.Now()
					p := e.Query(context.Background(), q)
					<-p.Published()
					p.End()
					return cputime.Now() - t0
				}
				ask(frozen)
				ask(live)
				b.ReportAllocs()
				var tl, tf time.Duration
				for b.Loop() {
					tl += ask(live)
					tf += ask(frozen)
				}
				b.ReportMetric(float64(tl.Nanoseconds())/float64(b.N)/1e3, "live-cpu-us")
				b.ReportMetric(float64(tf.Nanoseconds())/float64(b.N)/1e3, "frozen-cpu-us")
				if tl > 0 {
					b.ReportMetric(float64(tf)/float64(tl), "x-live")
				}
			})
		}
	}
}
