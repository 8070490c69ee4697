package score

import (
	"flag"
	"testing"
	"time"

	"github.com/memrecall/memrecall/memory"
)

// variants enables the exploratory tables that measure candidate rules on
// the evaluation corpora (minutes on two cores). They document why the
// shipped rules were chosen; the gates that protect the shipped scorer are
// the fast tests here and the quality gates of go test ./eval/. .ci/run
// runs them:
//
//	go test ./score -variants -run Variants -v
var variants = flag.Bool("variants", false, "run the exploratory variant tables on the evaluation corpora")

// needVariants skips an exploratory table unless -variants is set.
func needVariants(t *testing.T) {
	t.Helper()
	if !*variants {
		t.Skip("exploratory table: run with -variants")
	}
}

var baseTime = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

// doc builds a document; age is in hours before baseTime.
func doc(id string, typ memory.Type, title, desc, body string, age int) *memory.Document {
	return &memory.Document{
		ID:          memory.ID("/mem/" + id + ".md"),
		RelPath:     id + ".md",
		Type:        typ,
		Title:       title,
		Description: desc,
		Body:        body,
		Modified:    baseTime.Add(-time.Duration(age) * time.Hour),
	}
}

// ids lists the relative paths of ranked matches, for readable diffs.
func ids(ms []Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Doc.RelPath
	}
	return out
}

// fieldScore is a document's score at an inverse document frequency of one
// for every token, in weights (title 4, description 3, body 1, the body
// past the window ½, a folded match ¾ of an exact one), with the type
// boost: the field arithmetic of the ranking without the corpus.
func fieldScore(q Query, d *memory.Document) float64 {
	var points int32
	for _, m := range docMasks(&q, d) {
		points += fieldPoints[m]
	}
	if points == 0 {
		return 0
	}
	return float64(points)/pointsPerWeight + float64(q.typeBoostFor(d.Type))
}
