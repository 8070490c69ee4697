package score

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/memory"
)

// capsEnglish names, in BenchmarkRankColdPass, English topics written with
// capitals: each field's first letter and every twelfth word's, as
// titles and sentences start. No generated script has an upper-case
// letter, so without it no benchmark takes scoreField's path for ASCII
// text with capitals (checked and lowered before the byte loop scores
// it), which real English notes take in nearly every field.
const capsEnglish gentree.Lang = "caps-en"

// capitalise upper-cases the first letter of s's words number 0, 12, 24,
// ... (s is lower-case ASCII words between single spaces).
func capitalise(s string) string {
	b := []byte(s)
	word := 0
	for i := range b {
		if i == 0 || b[i-1] == ' ' {
			if word%12 == 0 && 'a' <= b[i] && b[i] <= 'z' {
				b[i] -= 'a' - 'A'
			}
			word++
		}
	}
	return string(b)
}

// scriptDocs returns n generated topics of lang, parsed, and the language's
// benchmark query. capsEnglish is English with capitals.
func scriptDocs(b *testing.B, lang gentree.Lang, n int) ([]*memory.Document, Query) {
	if lang == capsEnglish {
		docs, q := scriptDocs(b, gentree.English, n)
		for _, d := range docs {
			d.Title, d.Description, d.Body = capitalise(d.Title), capitalise(d.Description), capitalise(d.Body)
		}
		return docs, q
	}
	g, err := gentree.New(lang)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(n), 1))
	docs := make([]*memory.Document, n)
	for i := range docs {
		p, err := memory.Parse([]byte(g.Topic(r, i)))
		if err != nil {
			b.Fatal(err)
		}
		docs[i] = &memory.Document{
			ID: memory.ID(fmt.Sprintf("/m/t%05d.md", i)), Type: p.Type,
			Title: p.Title, Description: p.Description, Body: p.Body,
			Modified: baseTime.Add(time.Duration(i) * time.Minute),
		}
	}
	return docs, NewQuery(g.Query(), nil)
}

// floorTexts returns the bytes a document's scoring reads and is held
// against: its title, description, body window and the rest of the body
// up to the read limit (splitBody), found once, outside the timed or
// counted pass, so the floor is the decode loop alone.
func floorTexts(docs []*memory.Document) []string {
	var out []string
	for _, d := range docs {
		window, far := splitBody(d.Body)
		out = append(out, d.Title, d.Description, window, far)
	}
	return out
}

// decodeFloor is the floor a document's tokenising and scoring is held
// against: one utf8.DecodeRuneInString pass over the same bytes (see
// floorTexts).
//
//go:noinline
func decodeFloor(texts []string) int {
	n := 0
	for _, s := range texts {
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			n += int(r & 1)
		}
	}
	return n
}

// BenchmarkScoreVsDecode is issue 12's tokeniser target: scoring a
// document that is not indexed (normalise, tokenise, look each token's
// keys up in the query — what a cold query does per document) against a
// plain utf8.DecodeRune pass over the same bytes, per script, both timed
// in every iteration. x-decode is the ratio of the summed wall-clock
// times, x-decode-cpu that of the summed CPU times of the benchmark's
// thread (cputime.Thread, 0 where it cannot be read): on a loaded
// machine the wall clock also counts the time a pass waits for a core.
// The goal is at most 3.
func BenchmarkScoreVsDecode(b *testing.B) {
	for _, lang := range gentree.Langs {
		b.Run("lang="+string(lang), func(b *testing.B) {
			docs, q := scriptDocs(b, lang, 200)
			texts := floorTexts(docs)
			var buf []string
			var floor, score, floorCPU, scoreCPU time.Duration
			sink := 0
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			for b.Loop() {
				c0, t0 := cputime.Thread(), time.Now()
				sink += decodeFloor(texts)
				t1, c1 := time.Now(), cputime.Thread()
				sink += scoreDocs(&q, docs, &buf)
				t2, c2 := time.Now(), cputime.Thread()
				floor += t1.Sub(t0)
				score += t2.Sub(t1)
				floorCPU += c1 - c0
				scoreCPU += c2 - c1
			}
			_ = sink
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) / float64(len(docs)) }
			b.ReportMetric(per(floor), "decode-ns/doc")
			b.ReportMetric(per(score), "score-ns/doc")
			b.ReportMetric(float64(score)/float64(floor), "x-decode")
			if floorCPU > 0 {
				b.ReportMetric(float64(scoreCPU)/float64(floorCPU), "x-decode-cpu")
			}
		})
	}
}

// scoreDocs scores every document of docs directly, as a cold query does,
// and returns a value derived from the masks so the work is kept. It and
// decodeFloor are not inlined so that callgrind can count each alone:
// see docs/performance.md, "Instruction counts".
//
//go:noinline
func scoreDocs(q *Query, docs []*memory.Document, buf *[]string) int {
	sink := 0
	for _, d := range docs {
		var masks [MaxQueryTokens]field
		scoreDirect(q, d, buf, &masks)
		sink += int(masks[0])
	}
	return sink
}

// BenchmarkScorePass runs one pass alone per iteration, decodeFloor or
// scoreDocs, over the documents of BenchmarkScoreVsDecode: the workload
// that bench/callgrind/score.sh counts instructions of. The setup is paid
// once per run, so the difference between two runs of different
// iteration counts is the cost of the passes alone.
func BenchmarkScorePass(b *testing.B) {
	for _, lang := range gentree.Langs {
		b.Run("lang="+string(lang)+"/pass=decode", func(b *testing.B) { benchDecodePass(b, lang, 200) })
		b.Run("lang="+string(lang)+"/pass=score", func(b *testing.B) {
			docs, q := scriptDocs(b, lang, 200)
			var buf []string
			sink := 0
			for b.Loop() {
				sink += scoreDocs(&q, docs, &buf)
			}
			_ = sink
		})
	}
}

// BenchmarkRankColdPass is the cold engine's first ranking in score
// alone: per iteration, a new Index ranks 1,000 generated topics of a
// script, which it has never seen and so scores directly (scoreFresh:
// every field of every document, the query's prefilter, the per-document
// bookkeeping), then weighs and orders them (pass=rank); pass=decode is
// decodeFloor over the same documents' fields, for scale.
// bench/callgrind/rankcold.sh counts the instructions of a pass of each;
// recall's BenchmarkColdVsFloor times the same stage in an engine
// (rank-ms). lang=caps-en is English with capitals (capsEnglish; not
// "en-caps", which the pattern lang=en would select too).
func BenchmarkRankColdPass(b *testing.B) {
	for _, lang := range append(gentree.Langs[:len(gentree.Langs):len(gentree.Langs)], capsEnglish) {
		b.Run("lang="+string(lang)+"/pass=decode", func(b *testing.B) { benchDecodePass(b, lang, 1000) })
		b.Run("lang="+string(lang)+"/pass=rank", func(b *testing.B) {
			docs, q := scriptDocs(b, lang, 1000)
			b.ReportAllocs()
			for b.Loop() {
				NewIndex().Rank(q, docs)
			}
		})
	}
}

// benchDecodePass is the pass=decode of BenchmarkScorePass and
// BenchmarkRankColdPass: decodeFloor over the fields of n generated topics
// of lang per iteration. The topics are generated in the sub-benchmark,
// so a run that selects one pass does not generate every script's.
func benchDecodePass(b *testing.B, lang gentree.Lang, n int) {
	docs, _ := scriptDocs(b, lang, n)
	texts := floorTexts(docs)
	sink := 0
	for b.Loop() {
		sink += decodeFloor(texts)
	}
	_ = sink
}
