// Package legacy is a frozen copy of the naive scorer memrecall replaced.
// It exists only so the evaluation can report before and after on the same
// corpus; nothing on the recall path uses it. Do not improve it: its flaws
// are the baseline.
//
// The rules, as the pre-design scorer applied them:
//   - query and document text are lower-cased (no Unicode normalisation) and
//     split into ASCII [a-z0-9]+ runs; runs of 3+ characters are tokens, so
//     non-ASCII text yields nothing;
//   - +2 per distinct query token found as a substring anywhere in the
//     document's type, title, description or full body;
//   - +1 per keyword of the document's type that appears among the query
//     tokens, even without any other hit (a flaw the new scorer fixes);
//   - +1 for a non-empty body, but only for a document that already scored:
//     otherwise every document with a body would score and the scorer could
//     never return nothing. This reading is recorded in
//     docs/decisions/0202-legacy-scorer.md;
//   - only documents with score > 0 are returned, ranked by score, then by
//     type name (alphabetical), then input order.
package legacy

import (
	"slices"
	"strings"

	"github.com/memrecall/memrecall/memory"
)

// Match is one returned document and its legacy score.
type Match struct {
	Doc   *memory.Document
	Score int
}

// typeKeywords are the legacy per-type keyword lists.
func typeKeywords(t memory.Type) []string {
	switch t {
	case memory.TypeUser:
		return []string{"user", "prefer", "preference", "preferences", "profile"}
	case memory.TypeFeedback:
		return []string{"feedback", "correction", "lesson", "mistake"}
	case memory.TypeProject:
		return []string{"project", "deadline", "incident", "goal"}
	case memory.TypeReference:
		return []string{"reference", "docs", "link", "dashboard", "url"}
	}
	return nil
}

// Tokens returns the legacy tokens of text: distinct lower-cased ASCII
// [a-z0-9]+ runs of at least three characters, in order.
func Tokens(text string) []string {
	text = strings.ToLower(text)
	var out []string
	seen := map[string]bool{}
	start := -1
	flush := func(end int) {
		if start >= 0 && end-start >= 3 && !seen[text[start:end]] {
			seen[text[start:end]] = true
			out = append(out, text[start:end])
		}
		start = -1
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return out
}

// Score is the legacy score of one document for the query tokens. It
// reads the first memory.BodyWindow characters of the body, all that the
// scan kept of a body when this scorer was frozen (the scan now keeps the
// whole body it reads).
func Score(tokens []string, d *memory.Document) int {
	hay := strings.ToLower(d.Type.String() + " " + d.Title + " " + d.Description + " " + window(d.Body))
	score := 0
	for _, t := range tokens {
		if strings.Contains(hay, t) {
			score += 2
		}
	}
	for _, k := range typeKeywords(d.Type) {
		if slices.Contains(tokens, k) {
			score++
		}
	}
	if score > 0 && d.Body != "" {
		score++
	}
	return score
}

// Rank returns the documents with a legacy score > 0, best first; ties go
// by type name, then input order.
func Rank(query string, docs []*memory.Document) []Match {
	tokens := Tokens(query)
	var out []Match
	for _, d := range docs {
		if d == nil {
			continue
		}
		if s := Score(tokens, d); s > 0 {
			out = append(out, Match{Doc: d, Score: s})
		}
	}
	slices.SortStableFunc(out, func(a, b Match) int {
		if a.Score != b.Score {
			return b.Score - a.Score
		}
		return strings.Compare(a.Doc.Type.String(), b.Doc.Type.String())
	})
	return out
}

// window returns the first memory.BodyWindow runes of body.
func window(body string) string {
	n := 0
	for i := range body {
		if n == memory.BodyWindow {
			return body[:i]
		}
		n++
	}
	return body
}
