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
// EncodeFrozen holds the index's lock, on the live index (a warm-up's
// term map) and on the frozen one (an engine's state after its warm-up):
// the time a query that arrives meanwhile can wait in Rank before it
// starts. Since decision 0836 the copy takes many short holds:
// live-max-hold-ms and frozen-max-hold-ms are the longest single hold of
// any iteration, live-hold-ms and frozen-hold-ms the holds' sum per
// encoding, live-holds and frozen-holds their number, and live-encode-ms
// and frozen-encode-ms the whole encoding: encodeCopied, what
// EncodeFrozen runs (the Warm, whose holds only look the documents up
// here and are not counted among the holds, then the copy, the lay-out
// and the encoding); live-encode-cpu-ms and frozen-encode-cpu-ms are the
// same in the encoding thread's CPU time. Every iteration also ranks the
// tree's four queries on the frozen index, so x-query-max, the longest
// hold over one warm query, holds under any load.
//
// Then, on each index, a goroutine ranks the tree's first query back to
// back while an encoding runs, and as many times again with no encoding.
// Each call takes the lock as Rank does, timed: wait-lock-max-ms is the
// longest wait for it during the encodings, wait-rank-max-ms the slowest
// call in all (its wait, its ranking slowed by the writer's work on the
// other core, and the collector), alone-rank-max-ms the slowest call
// with no encoding. Wall clock, so load shows in all three; nothing is
// asserted about them.
func BenchmarkEncodeFrozenLockHold(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese} {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				s := warmQuerySetFor(b, lang, n)
				type side struct {
					held, encode, longest time.Duration
					longestCPU, encodeCPU time.Duration
					holds                 int
				}
				encode := func(ix *Index, sd *side) {
					var st copyStats
					t0, c0 := time.Now(), cputime.Thread()
					data := ix.encodeCopied(s.docs, &st)
					sd.encodeCPU += cputime.Thread() - c0
					sd.encode += time.Since(t0)
					// Outside the timing: the encoding has a meta word
					// for every document and holds terms.
					f, err := decodeFrozen(data, len(s.docs))
					if err != nil {
						b.Fatalf("encoding of %d documents: %v", len(s.docs), err)
					}
					if f.terms+f.grams == 0 {
						b.Fatalf("encoding of %d documents holds no terms", len(s.docs))
					}
					sd.held += st.held
					sd.holds += st.holds
					sd.longest = max(sd.longest, st.longest)
					sd.longestCPU = max(sd.longestCPU, st.longestCPU)
				}
				type calls struct{ wait, slowest time.Duration }
				// ranks ranks the first query on ix back to back, as
				// Rank does but with its wait for the lock timed, until
				// stop is closed or limit calls are made, and returns
				// the count.
				ranks := func(ix *Index, stop <-chan struct{}, limit int, c *calls) (count int) {
					for {
						select {
						case <-stop:
							return count
						default:
						}
						if limit > 0 && count == limit {
							return count
						}
						q := s.queries[0]
						t0 := time.Now()
						ix.mu.Lock()
						c.wait = max(c.wait, time.Since(t0))
						ix.rankLocked(&q, s.docs)
						ix.mu.Unlock()
						c.slowest = max(c.slowest, time.Since(t0))
						count++
					}
				}
				besideEncode := func(ix *Index, during, alone *calls) {
					stop := make(chan struct{})
					done := make(chan int)
					go func() { done <- ranks(ix, stop, 0, during) }()
					var unused side
					encode(ix, &unused)
					close(stop)
					ranks(ix, nil, max(<-done, 1), alone)
				}
				// The holds' CPU time is the thread's: keep the encodings
				// on one.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				runtime.GC()
				var live, frozen side
				var query time.Duration
				var during, alone calls
				for b.Loop() {
					encode(s.live, &live)
					encode(s.frozen, &frozen)
					t0 := time.Now()
					s.rankAll(s.frozen)
					query += time.Since(t0)
					besideEncode(s.live, &during, &alone)
					besideEncode(s.frozen, &during, &alone)
				}
				perIter := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1e3 }
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
				b.ReportMetric(perIter(live.held), "live-hold-ms")
				b.ReportMetric(perIter(frozen.held), "frozen-hold-ms")
				b.ReportMetric(ms(live.longest), "live-max-hold-ms")
				b.ReportMetric(ms(frozen.longest), "frozen-max-hold-ms")
				b.ReportMetric(ms(live.longestCPU), "live-max-hold-cpu-ms")
				b.ReportMetric(ms(frozen.longestCPU), "frozen-max-hold-cpu-ms")
				b.ReportMetric(float64(live.holds)/float64(b.N), "live-holds")
				b.ReportMetric(float64(frozen.holds)/float64(b.N), "frozen-holds")
				b.ReportMetric(perIter(live.encode), "live-encode-ms")
				b.ReportMetric(perIter(frozen.encode), "frozen-encode-ms")
				b.ReportMetric(perIter(live.encodeCPU), "live-encode-cpu-ms")
				b.ReportMetric(perIter(frozen.encodeCPU), "frozen-encode-cpu-ms")
				b.ReportMetric(ms(during.wait), "wait-lock-max-ms")
				b.ReportMetric(ms(during.slowest), "wait-rank-max-ms")
				b.ReportMetric(ms(alone.slowest), "alone-rank-max-ms")
				if query > 0 {
					oneQuery := float64(query) / float64(b.N*len(s.queries))
					b.ReportMetric(float64(max(live.longest, frozen.longest))/oneQuery, "x-query-max")
				}
			})
		}
	}
}

// BenchmarkFreezeLockHold measures Freeze as an engine's warm-up runs it,
// on an index that Warm has just filled with the tree (a new one each
// iteration, not timed): freeze-max-hold-cpu-ms and freeze-max-hold-ms
// are the longest single hold of the index's lock in any iteration, in
// the thread's CPU time and on the wall clock, freeze-holds the holds
// per Freeze, freeze-hold-ms their sum, and freeze-cpu-ms and freeze-ms
// the whole Freeze (copy, lay-out, encoding, the new base's slots and the
// hold that puts it in place), CPU and wall. The aim of decision 0836 is
// a longest hold under 2 ms of CPU at 10,000 Chinese topics.
func BenchmarkFreezeLockHold(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese} {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				docs, _ := scriptDocs(b, lang, n)
				// The holds' CPU time is the thread's: keep Freeze on one.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var all copyStats
				var cpu, wall time.Duration
				for b.Loop() {
					b.StopTimer()
					ix := NewIndex()
					ix.Warm(docs)
					runtime.GC()
					b.StartTimer()
					var st copyStats
					t0, c0 := time.Now(), cputime.Thread()
					if !ix.freeze(docs, &st) {
						b.Fatal("Freeze laid nothing out")
					}
					cpu += cputime.Thread() - c0
					wall += time.Since(t0)
					all.holds += st.holds
					all.held += st.held
					all.longest = max(all.longest, st.longest)
					all.longestCPU = max(all.longestCPU, st.longestCPU)
				}
				perIter := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) / 1e3 }
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
				b.ReportMetric(ms(all.longestCPU), "freeze-max-hold-cpu-ms")
				b.ReportMetric(ms(all.longest), "freeze-max-hold-ms")
				b.ReportMetric(float64(all.holds)/float64(b.N), "freeze-holds")
				b.ReportMetric(perIter(all.held), "freeze-hold-ms")
				b.ReportMetric(perIter(cpu), "freeze-cpu-ms")
				b.ReportMetric(perIter(wall), "freeze-ms")
			})
		}
	}
}

// BenchmarkFreezeLoaded is what an engine's warm-up pays at its end when
// its index came whole from the snapshot: Freeze over the loaded
// documents, which finds nothing to lay out (decision 0841). The load
// itself is outside the timing and the allocation count.
func BenchmarkFreezeLoaded(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("topics=%d/lang=%s", n, gentree.English), func(b *testing.B) {
			docs, _ := scriptDocs(b, gentree.English, n)
			data := NewIndex().EncodeFrozen(docs)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				ix := NewIndex()
				if err := ix.LoadFrozen(docs, data); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if ix.Freeze(docs) {
					b.Fatal("Freeze laid out an index loaded whole")
				}
			}
		})
	}
}
