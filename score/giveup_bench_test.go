package score

import (
	"strings"
	"testing"

	"github.com/memrecall/memrecall/memory"
)

// BenchmarkScoreDirectGiveUp scores directly a document whose body the raw
// pass gives up on at its last word (a ligature, which normalisation
// changes): lower-case Cyrillic within the body window in runes, longer
// than it in bytes, so that the body is taken unchecked. It measures the
// give-up path of scoreDirect, which scores the window with the general
// tokenizer after the raw pass stopped. Instructions per pass, same
// binary whatever the load:
//
//	go test -c -o /tmp/s.test ./score && cd score && . ../bench/callgrind/lib.sh &&
//	GOGC=off cg_pass 200 . /tmp/s.test 'BenchmarkScoreDirectGiveUp$'
func BenchmarkScoreDirectGiveUp(b *testing.B) {
	body := strings.Repeat("настройка сервера для развертывания grafana ", 25) + "ﬁle"
	d := doc("a", memory.TypeProject, "Deploy", "", body, 1)
	if _, _, unchecked := splitBodyUnchecked(d.Body, false); !unchecked {
		b.Fatal("the body is not taken unchecked")
	}
	q := NewQuery("развертывания grafana", nil)
	var buf []string
	var probe [MaxQueryTokens]field
	if scoreRawField(&q, d.Body, fieldBody, &buf, &probe) {
		b.Fatal("the raw pass does not give up on the body")
	}
	b.ReportAllocs()
	for b.Loop() {
		var masks [MaxQueryTokens]field
		scoreDirect(&q, d, &buf, &masks)
	}
}
