package score

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/memory"
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

// warmQueryLangs are the trees BenchmarkWarmQuery ranks: the scripts whose
// keys are words (en), bigrams of one script (zh, ko), bigrams across
// scripts (ja) and both (mixed).
var warmQueryLangs = []gentree.Lang{gentree.English, gentree.Chinese, gentree.Japanese, gentree.Korean, gentree.Mixed}

// warmQuerySet is one tree's documents, its queries, and two indexes that
// hold every document: live (term map and posting lists, as Warm leaves
// it) and frozen (Freeze, as an engine's warm-up leaves it).
type warmQuerySet struct {
	docs         []*memory.Document
	queries      []Query
	live, frozen *Index
}

// newWarmQuerySet generates n topics of lang and indexes them both ways.
// The queries are the language's benchmark query and three 8-word texts
// drawn from the same vocabulary (fixed seed), so some keys are frequent,
// some rare and, for the unsegmented scripts, some bigrams span two words
// and match nothing.
func newWarmQuerySet(b *testing.B, lang gentree.Lang, n int) *warmQuerySet {
	docs, q := scriptDocs(b, lang, n)
	g, err := gentree.New(lang)
	if err != nil {
		b.Fatal(err)
	}
	s := &warmQuerySet{docs: docs, queries: []Query{q}, live: NewIndex(), frozen: NewIndex()}
	r := rand.New(rand.NewPCG(5, 5))
	for range 3 {
		s.queries = append(s.queries, NewQuery(g.Text(r, 8), nil))
	}
	s.live.Warm(docs)
	s.frozen.Freeze(docs)
	return s
}

// rankAll ranks every query of s over ix and returns the number of
// matches, so that the work cannot be dropped.
func (s *warmQuerySet) rankAll(ix *Index) int {
	n := 0
	for _, q := range s.queries {
		_, ranked := ix.Rank(q, s.docs)
		n += len(ranked)
	}
	return n
}

// warmQuerySets caches one warmQuerySet per tree across the sub-benchmarks
// (building a 10,000-topic CJK set takes seconds).
var warmQuerySets = map[string]*warmQuerySet{}

func warmQuerySetFor(b *testing.B, lang gentree.Lang, n int) *warmQuerySet {
	key := fmt.Sprintf("%s/%d", lang, n)
	if s, ok := warmQuerySets[key]; ok {
		return s
	}
	s := newWarmQuerySet(b, lang, n)
	warmQuerySets[key] = s
	return s
}

// BenchmarkWarmQuery is a warm engine's query (issue 12, decision 0125):
// the same queries ranked over the same documents through the frozen index
// (the resident form after an engine's warm-up) and through the live term
// map, both in every iteration, so their ratio x-live (frozen CPU over
// live CPU, summed) holds under any load. An iteration ranks four queries
// on each index. live-us and frozen-us are CPU µs per query;
// allocs/op counts both sides (two allocations per Rank, the results).
// Run it alone: the CPU clock is the process's.
func BenchmarkWarmQuery(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range warmQueryLangs {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				s := warmQuerySetFor(b, lang, n)
				if got, want := s.rankAll(s.frozen), s.rankAll(s.live); got != want {
					b.Fatalf("frozen index ranked %d matches, live %d", got, want)
				}
				runtime.GC()
				b.ReportAllocs()
				var live, frozen time.Duration
				for b.Loop() {
					t0 := cputime.Now()
					s.rankAll(s.live)
					t1 := cputime.Now()
					s.rankAll(s.frozen)
					t2 := cputime.Now()
					live += t1 - t0
					frozen += t2 - t1
				}
				perQuery := func(d time.Duration) float64 {
					return float64(d.Nanoseconds()) / float64(b.N*len(s.queries)) / 1e3
				}
				b.ReportMetric(perQuery(live), "live-us")
				b.ReportMetric(perQuery(frozen), "frozen-us")
				if live > 0 {
					b.ReportMetric(float64(frozen)/float64(live), "x-live")
				}
			})
		}
	}
}

// BenchmarkWarmQueryPass is one side of BenchmarkWarmQuery alone, for
// counting instructions (bench/callgrind/warmquery.sh): an iteration ranks
// the four queries over one index.
func BenchmarkWarmQueryPass(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range warmQueryLangs {
			for _, layout := range []string{"live", "frozen"} {
				b.Run(fmt.Sprintf("topics=%d/lang=%s/layout=%s", n, lang, layout), func(b *testing.B) {
					s := warmQuerySetFor(b, lang, n)
					ix := s.live
					if layout == "frozen" {
						ix = s.frozen
					}
					b.ReportAllocs()
					for b.Loop() {
						s.rankAll(ix)
					}
				})
			}
		}
	}
}

// BenchmarkEncodeFrozenLockHold measures how long the snapshot writer's
// EncodeFrozen holds the index's lock while it copies the postings out
// (collectFrozen), the time a query that arrives meanwhile waits in Rank
// before it starts: on the live index (a warm-up's term map) and on the
// frozen one (an engine's state after its warm-up). In every iteration it
// also ranks the tree's four queries on the frozen index, so x-query, the
// hold over one warm query, holds under any load: how many warm queries'
// time a query can lose to a write. live-hold-ms and frozen-hold-ms are
// the hold per encoding.
func BenchmarkEncodeFrozenLockHold(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese} {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				s := warmQuerySetFor(b, lang, n)
				hold := func(ix *Index) time.Duration {
					t0 := time.Now()
					ix.mu.Lock()
					meta, terms := ix.collectFrozen(s.docs)
					ix.mu.Unlock()
					d := time.Since(t0)
					if len(meta) != len(s.docs) || len(terms) == 0 {
						b.Fatalf("collectFrozen: %d meta words for %d documents, %d terms", len(meta), len(s.docs), len(terms))
					}
					return d
				}
				runtime.GC()
				var live, frozen, query time.Duration
				for b.Loop() {
					live += hold(s.live)
					frozen += hold(s.frozen)
					t0 := time.Now()
					s.rankAll(s.frozen)
					query += time.Since(t0)
				}
				perIter := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1e3 }
				b.ReportMetric(perIter(live), "live-hold-ms")
				b.ReportMetric(perIter(frozen), "frozen-hold-ms")
				if query > 0 {
					oneQuery := float64(query) / float64(len(s.queries))
					b.ReportMetric(float64(live)/oneQuery, "x-query-live")
					b.ReportMetric(float64(frozen)/oneQuery, "x-query-frozen")
				}
			})
		}
	}
}
