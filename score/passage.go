package score

import "strings"

// Passage finds where a body answers a query when its window does not: if
// no token of the body's first BodyWindow characters matches a token of q
// but a line past the window does, it returns the byte range of the first
// such line of body (docs/decisions/0207-folding-stems.md). A prompt that
// shows a document matched only there can then show that passage instead
// of a window that does not hold it. Matching is the scorer's (keys,
// folded keys); the body is read no further than the scorer reads it.
func Passage(q Query, body string) (start, end int, ok bool) {
	if len(q.tokens) == 0 {
		return 0, 0, false
	}
	window, far := splitBody(body)
	if far == "" || matchesText(&q, window) {
		return 0, 0, false
	}
	for off := len(window); off < len(window)+len(far); {
		lineEnd := strings.IndexByte(body[off:len(window)+len(far)], '\n')
		if lineEnd < 0 {
			lineEnd = len(window) + len(far)
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
