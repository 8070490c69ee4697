package score

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns the text the scorer compares: Unicode NFKC, then lower
// case, with the Greek final sigma ς folded onto σ (upper-case Greek has one
// sigma, so "ΒΑΣΗΣ" and "βασης" must meet). NFKC folds full-width Latin, half-width katakana and ligatures onto
// their ordinary forms, so "ｻｰﾊﾞｰ" and "サーバー" are the same word.
// Normalize is idempotent.
func Normalize(text string) string {
	s := strings.ToLower(norm.NFKC.String(text))
	// Lower-casing can, for a handful of characters, leave text that is no
	// longer NFKC (for example U+0130 becomes i + combining dot); one more
	// pass makes the function idempotent.
	if !norm.NFKC.IsNormalString(s) {
		s = strings.ToLower(norm.NFKC.String(s))
	}
	if strings.Contains(s, "ς") {
		s = strings.ReplaceAll(s, "ς", "σ")
	}
	return s
}
