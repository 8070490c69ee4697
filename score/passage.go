package score

import "strings"

// Passage finds where a ranked document answers a query when its body
// window does not: when m.FarOnly (ranking found no match in the first
// BodyWindow characters of the body and one past them), it returns the
// byte range of the first line of m.Doc.Body past the window that
// matches a token of q (docs/decisions/0207-folding-stems.md,
// 0218-passage-from-match.md). A prompt that shows such a document can
// then show that passage instead of a window that does not hold it.
// Whether there is a far match comes from the ranking, so a document
// matched in its window (nearly all) costs nothing here; for the others
// the window is only measured (splitBody counts its code points) and the
// lines past it are matched, up to the first that matches, with the
// scorer's matching (keys, folded keys, silent-e keys) and no further
// than the scorer reads. q must be the query m was ranked for.
func Passage(q Query, m Match) (start, end int, ok bool) {
	if !m.FarOnly || m.Doc == nil || len(q.tokens) == 0 {
		return 0, 0, false
	}
	body := m.Doc.Body
	window, far := splitBody(body)
	stop := len(window) + len(far)
	for off := len(window); off < stop; {
		lineEnd := strings.IndexByte(body[off:stop], '\n')
		if lineEnd < 0 {
			lineEnd = stop
		} else {
			lineEnd += off
		}
		if matchesText(&q, body[off:lineEnd]) {
			return off, lineEnd, true
		}
		off = lineEnd + 1
	}
	return 0, 0, false
}

// matchesText reports whether some token of raw text matches a token of q.
func matchesText(q *Query, text string) bool {
	var masks [MaxQueryTokens]field
	var buf []string
	t := docText{Normalize(text)}
	t.forEachKey(q, &buf, func(k string, f field) { q.apply(&masks, k, f) })
	for _, m := range masks[:len(q.tokens)] {
		if m != 0 {
			return true
		}
	}
	return false
}
