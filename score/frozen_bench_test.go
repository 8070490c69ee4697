package score

import (
	"fmt"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/gentree"
)

// BenchmarkFrozenLoad is what a fresh process pays per topic to take the
// index from a snapshot (LoadFrozen: check the data whole, set up a slot
// per document) against what it pays without one (Warm: tokenise and
// index), both timed in every iteration over the same generated topics.
// x-warm is the ratio of the sums; frozen-B/topic the encoding's size.
func BenchmarkFrozenLoad(b *testing.B) {
	for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese, gentree.Japanese, gentree.Mixed} {
		b.Run(fmt.Sprintf("topics=1000/lang=%s", lang), func(b *testing.B) {
			docs, _ := scriptDocs(b, lang, 1000)
			data := NewIndex().EncodeFrozen(docs)
			b.ReportAllocs()
			var load, warm time.Duration
			for b.Loop() {
				t0 := time.Now()
				if err := NewIndex().LoadFrozen(docs, data); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				NewIndex().Warm(docs)
				warm += time.Since(t1)
				load += t1.Sub(t0)
			}
			n := float64(b.N * len(docs))
			b.ReportMetric(float64(load.Nanoseconds())/n, "load-ns/topic")
			b.ReportMetric(float64(warm.Nanoseconds())/n, "warm-ns/topic")
			b.ReportMetric(float64(load)/float64(warm), "x-warm")
			b.ReportMetric(float64(len(data))/float64(len(docs)), "frozen-B/topic")
		})
	}
}
