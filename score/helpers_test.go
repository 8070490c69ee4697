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
