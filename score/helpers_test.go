package score

import (
	"time"

	"github.com/memrecall/memrecall/memory"
)

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
