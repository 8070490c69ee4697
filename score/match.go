package score

import (
	"strings"
	"unicode/utf8"
)

// The matching rule (docs/decisions/0200-matching-rule.md): a query token q
// matches a field token f when
//
//	f == q, or
//	f == [article] + q + [suffix]
//
// where q and f are whole tokens (runs of 3+ word characters, never
// bigrams), article is the Arabic
// definite article "ال" (written joined to its noun) and suffix is a short
// inflection: one of the English endings s, es, ed, d, ing, ings, or any
// ending of at most three runes that is not plain ASCII (Cyrillic, Greek,
// Arabic, accented Latin case endings). So "owner" finds "owners" but not
// "ownership", and "сервер" finds "сервера". Bigrams match only exactly.
//
// The rule is decided per field token, so an inverted index keyed by the
// strings each field token answers to (its keys) is exact: q matches f if and
// only if q is one of keys(f).

// arabicArticle is written joined to the word it determines.
const arabicArticle = "ال"

// maxNonASCIISuffixRunes bounds a non-English inflection ending.
const maxNonASCIISuffixRunes = 3

// englishSuffixes are the endings an English query word may gain in a field
// and still match. "er" is deliberately absent: use→user, own→owner change
// the meaning.
var englishSuffixes = [...]string{"s", "es", "ed", "d", "ing", "ings"}

// allowedSuffix reports whether ext may follow a query token inside a field
// token that it still matches.
func allowedSuffix(ext string) bool {
	if ext == "" {
		return true
	}
	ascii := true
	for i := 0; i < len(ext); i++ {
		if ext[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		for _, s := range englishSuffixes {
			if ext == s {
				return true
			}
		}
		return false
	}
	return utf8.RuneCountInString(ext) <= maxNonASCIISuffixRunes
}

// Matches reports whether query token q matches field token f under the
// shipped rule. It is the plain definition that the naive reference scorer
// applies and that the index must agree with.
func Matches(q, f string) bool {
	if q == f {
		return true
	}
	if utf8.RuneCountInString(q) < minWordRunes || !isWordToken(q) {
		return false
	}
	if rest, ok := strings.CutPrefix(f, q); ok && allowedSuffix(rest) {
		return true
	}
	if body, ok := strings.CutPrefix(f, arabicArticle); ok {
		if rest, ok := strings.CutPrefix(body, q); ok && allowedSuffix(rest) {
			return true
		}
	}
	return false
}

// appendKeys appends to dst every query token that matches field token f:
// f itself, and f stripped of the article and/or an allowed suffix when
// what remains is a whole token. The result may hold duplicates.
func appendKeys(dst []string, f string) []string {
	dst = append(dst, f)
	if !isWordToken(f) {
		return dst
	}
	dst = appendStems(dst, f)
	if body, ok := strings.CutPrefix(f, arabicArticle); ok && utf8.RuneCountInString(body) >= minWordRunes {
		dst = append(dst, body)
		dst = appendStems(dst, body)
	}
	return dst
}

// appendStems appends the prefixes of f that f extends by an allowed,
// non-empty suffix, when they are whole tokens.
func appendStems(dst []string, f string) []string {
	// Walk back over the last runes of f; the longest suffix considered is
	// the longest English ending or maxNonASCIISuffixRunes runes.
	end := len(f)
	for n := 1; n <= 4 && end > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(f[:end])
		end -= size
		stem := f[:end]
		if utf8.RuneCountInString(stem) < minWordRunes {
			break
		}
		if allowedSuffix(f[end:]) {
			dst = append(dst, stem)
		}
	}
	return dst
}

// isWordToken reports whether tok is a whole-run token rather than a
// bigram: tokens are of one class, so the first character decides.
func isWordToken(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return classify(r) == classWord
}
