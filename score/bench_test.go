package score

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/memory"
)

// benchVocabulary is a fixed pseudo-vocabulary with a skewed (Zipf-like)
// draw, so some tokens have long posting lists as real prose does.
func benchVocabulary(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	words := make([]string, n)
	const letters = "abcdefghijklmnopqrstuvwxyz"
	for i := range words {
		l := 3 + r.IntN(8)
		var b strings.Builder
		for range l {
			b.WriteByte(letters[r.IntN(len(letters))])
		}
		words[i] = b.String()
	}
	return words
}

type benchText struct {
	r     *rand.Rand
	zipf  *rand.Zipf
	words []string
}

func newBenchText(seed uint64) *benchText {
	r := rand.New(rand.NewPCG(seed, 7))
	words := benchVocabulary(20000)
	return &benchText{r: r, zipf: rand.NewZipf(r, 1.1, 2, uint64(len(words)-1)), words: words}
}

func (bt *benchText) words_(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(bt.words[bt.zipf.Uint64()])
	}
	return b.String()
}

// benchCorpus builds n documents of realistic size: a 4-word title, a
// 15-word description and a ~200-word body (about the 1,200-rune window).
func benchCorpus(n int) []*memory.Document {
	bt := newBenchText(42)
	docs := make([]*memory.Document, n)
	for i := range docs {
		docs[i] = &memory.Document{
			ID:          memory.ID(fmt.Sprintf("/mem/topic-%05d.md", i)),
			Type:        memory.Types[i%len(memory.Types)],
			Title:       bt.words_(4),
			Description: bt.words_(15),
			Body:        bt.words_(200),
			Modified:    baseTime.Add(-time.Duration(i) * time.Minute),
		}
	}
	return docs
}

func benchQuery(tokens int) Query {
	bt := newBenchText(99)
	return NewQuery(bt.words_(tokens*2), nil) // repeats are dropped; take the first n distinct below
}

func boundedQuery(tokens int) Query {
	q := benchQuery(tokens)
	if len(q.tokens) > tokens {
		// Prepared again from the kept tokens, so every per-token table
		// of the Query agrees with them.
		q = NewQuery(strings.Join(q.tokens[:tokens], " "), nil)
	}
	return q
}

// loopCPU runs f in a b.Loop and reports CPU nanoseconds per operation.
func loopCPU(b *testing.B, f func()) {
	b.ReportAllocs()
	runtime.GC() // the setup's garbage is not the operation's cost
	start := cputime.Now()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if n > 0 {
		b.ReportMetric(float64(cputime.Now()-start)/float64(n), "cpu-ns/op")
	}
}

// BenchmarkRank ranks prepared documents: the index is warm, as on an
// engine whose catalog did not change since the last query.
func BenchmarkRank(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		docs := benchCorpus(n)
		ix := NewIndex()
		ix.Warm(docs)
		for _, tokens := range []int{5, 20, 64} {
			q := boundedQuery(tokens)
			b.Run(fmt.Sprintf("docs=%d/tokens=%d", n, tokens), func(b *testing.B) {
				loopCPU(b, func() { ix.Rank(q, docs) })
			})
		}
	}
}

// BenchmarkRankFrozen is BenchmarkRank with the warm index frozen (Freeze,
// as an engine's warm-up leaves it): the layout=live runs are the same
// run's peer, so the two can be compared under any load.
func BenchmarkRankFrozen(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		docs := benchCorpus(n)
		live, frozen := NewIndex(), NewIndex()
		live.Warm(docs)
		frozen.Freeze(docs)
		for _, tokens := range []int{5, 20, 64} {
			q := boundedQuery(tokens)
			for _, l := range []struct {
				name string
				ix   *Index
			}{{"live", live}, {"frozen", frozen}} {
				b.Run(fmt.Sprintf("docs=%d/tokens=%d/layout=%s", n, tokens, l.name), func(b *testing.B) {
					loopCPU(b, func() { l.ix.Rank(q, docs) })
				})
			}
		}
	}
}

// BenchmarkRankNaive is the reference scorer on the same input, for scale.
func BenchmarkRankNaive(b *testing.B) {
	docs := benchCorpus(1000)
	q := boundedQuery(20)
	loopCPU(b, func() { RankNaive(q, docs) })
}

// BenchmarkRankCold ranks documents the index has never seen, as the
// first query after a cold scan does: they are scored directly, split over
// up to GOMAXPROCS goroutines (cpu-ns/op sums them), by substring search
// for queries of up to maxSearchTokens tokens and by tokenising above.
func BenchmarkRankCold(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		docs := benchCorpus(n)
		for _, tokens := range []int{8, 16, 20} {
			q := boundedQuery(tokens)
			b.Run(fmt.Sprintf("docs=%d/tokens=%d", n, tokens), func(b *testing.B) {
				loopCPU(b, func() { NewIndex().Rank(q, docs) })
			})
		}
	}
}

// BenchmarkWarm is the one-off cost of indexing a corpus (the engine's
// background warm-up).
func BenchmarkWarm(b *testing.B) {
	docs := benchCorpus(1000)
	loopCPU(b, func() { NewIndex().Warm(docs) })
}

// BenchmarkRankOneChanged re-ranks a warm corpus of 10,000 in which one
// document has a new version: the common case of an edited memory file.
func BenchmarkRankOneChanged(b *testing.B) {
	docs := benchCorpus(10000)
	ix := NewIndex()
	ix.Warm(docs)
	q := boundedQuery(20)
	i := 0
	loopCPU(b, func() {
		i++
		d := *docs[i%len(docs)]
		d.Modified = d.Modified.Add(time.Second)
		docs[i%len(docs)] = &d
		ix.Rank(q, docs)
	})
}

// BenchmarkNewQuery prepares a 64-token query with recent tools.
func BenchmarkNewQuery(b *testing.B) {
	text := newBenchText(5).words_(200)
	tools := []string{"mcp__github__create_issue", "jira::search", "Read", "Bash"}
	loopCPU(b, func() { NewQuery(text, tools) })
}
