package memory

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/internal/gentree"
)

// BenchmarkNormalize runs normalize over 200 generated topic files per
// script (internal/gentree), as a scan reads them: pass=one is normalize
// with checkText, pass=ref the three passes it replaced (normalizeRef).
// crlf=yes writes the files with CRLF line ends. Its instruction counts,
// which do not move with the machine's load, are what
// bench/callgrind/normalize.sh reports (decision 0226).
func BenchmarkNormalize(b *testing.B) {
	for _, lang := range gentree.Langs {
		for _, crlf := range []bool{false, true} {
			for _, pass := range []struct {
				name string
				f    func([]byte, bool, []byte) ([]byte, []byte, error)
			}{{"one", normalize}, {"ref", normalizeRef}} {
				b.Run(fmt.Sprintf("lang=%s/crlf=%v/pass=%s", lang, crlf, pass.name), func(b *testing.B) {
					files := normalizeFiles(b, lang, crlf)
					var total int64
					for _, f := range files {
						total += int64(len(f))
					}
					b.ReportAllocs()
					b.SetBytes(total)
					var scratch []byte
					for b.Loop() {
						for _, f := range files {
							var err error
							if _, scratch, err = pass.f(f, true, scratch); err != nil {
								b.Fatal(err)
							}
						}
					}
				})
			}
		}
	}
}

// normalizeFiles is 200 topic files of lang, with CRLF line ends if crlf.
func normalizeFiles(b *testing.B, lang gentree.Lang, crlf bool) [][]byte {
	g, err := gentree.New(lang)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(200, 1))
	files := make([][]byte, 200)
	for i := range files {
		t := g.Topic(r, i)
		if crlf {
			t = strings.ReplaceAll(t, "\n", "\r\n")
		}
		files[i] = []byte(t)
	}
	return files
}
