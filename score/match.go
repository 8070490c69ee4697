package score

import (
	"strings"
	"unicode/utf8"
)

// The matching rule (docs/decisions/0200-matching-rule.md and
// 0205-precision.md). A field token f can be read as a word k with one
// inflection: k is f itself or, when k is a whole token (a run of 3+ word
// characters, never a bigram), f is
//
//	[article] + k + suffix                 (owner → owners, сервер → сервера)
//	[article] + k + c + ("ing" | "ed")     (log → logging, stop → stopped), c = last letter of k, a consonant
//	[article] + k[:len-1] + "ing"          (use → using, configure → configuring), k ends in "e"
//
// where article is the Arabic definite article "ال" (written joined to its
// noun) and suffix is a short inflection: one of the English endings s, es,
// ed, d, ing, ings, or any ending of at most three runes that is not plain
// ASCII (Cyrillic, Greek, Arabic and accented Latin case endings). A query
// token q matches f when q and one such reading k have the same light stem
// (lightStem: one English inflection off, "retries" → "retry"). So
// "owner" finds "owners" but not "ownership", "log" finds "logging" but not
// "login", and "retries" finds "retry" and "retrying". Bigrams match only
// exactly.
//
// The rule is decided per field token, so an inverted index keyed by the
// stems of a field token's readings (appendKeys) is exact: q matches f if
// and only if lightStem(q) is one of the keys of f. A Query holds its
// tokens' stems for that reason.

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
	if isASCII(ext) {
		for _, s := range englishSuffixes {
			if ext == s {
				return true
			}
		}
		return false
	}
	return utf8.RuneCountInString(ext) <= maxNonASCIISuffixRunes
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isDoublingConsonant reports whether an English word ending in c doubles
// it before -ing and -ed (log → logging, plan → planned).
func isDoublingConsonant(c byte) bool {
	return 'a' <= c && c <= 'z' && !strings.ContainsRune("aeiouwxy", rune(c))
}

// Matches reports whether query token q matches field token f under the
// shipped rule: some reading of f with at most one inflection taken off
// (inflects) has q's light stem, or the stem of q with its -ing or -ed
// replaced by a silent e (silentEKey: "triaging" finds "triage"). It is
// the plain definition that the naive reference scorer applies and that
// the index must agree with.
func Matches(q, f string) bool {
	if q == f {
		return true
	}
	stem := lightStem(q)
	e := silentEKey(q, stem)
	var buf [8]string
	for _, k := range appendInflectionKeys(buf[:0], f) {
		if s := lightStem(k); s == stem || e != "" && s == e {
			return true
		}
	}
	return false
}

// inflects reports whether field token f is the reading q itself or, for
// a whole token q, q with one allowed inflection (see the rule above).
func inflects(q, f string) bool {
	if q == f {
		return true
	}
	if utf8.RuneCountInString(q) < minWordRunes || !isWordToken(q) {
		return false
	}
	if extendsInflected(q, f) {
		return true
	}
	if body, ok := strings.CutPrefix(f, arabicArticle); ok {
		return extendsInflected(q, body)
	}
	return false
}

// extendsInflected reports whether f is q with one allowed inflection.
func extendsInflected(q, f string) bool {
	if rest, ok := strings.CutPrefix(f, q); ok {
		if allowedSuffix(rest) {
			return true
		}
		// Doubled final consonant: log → logging, logged.
		last := q[len(q)-1]
		if isDoublingConsonant(last) && len(rest) > 1 && rest[0] == last &&
			(rest[1:] == "ing" || rest[1:] == "ed") {
			return true
		}
	}
	// Silent e dropped before -ing: use → using.
	if stem, ok := strings.CutSuffix(q, "e"); ok && f == stem+"ing" {
		return true
	}
	return false
}

// appendKeys appends to dst the keys under which the index files field
// token f: the light stem of each reading of f (appendInflectionKeys). A
// query token q matches f if and only if lightStem(q) is among them. The
// result may hold duplicates.
func appendKeys(dst []string, f string) []string {
	from := len(dst)
	dst = appendInflectionKeys(dst, f)
	for i := from; i < len(dst); i++ {
		dst[i] = lightStem(dst[i])
	}
	return dst
}

// appendInflectionKeys appends to dst every k that inflects to field token
// f: f itself and, for a whole token, what it is once an article and/or an
// inflection is taken off, when that is still a whole token. The result may
// hold duplicates.
func appendInflectionKeys(dst []string, f string) []string {
	dst = append(dst, f)
	if !isWordToken(f) {
		return dst
	}
	dst = appendStems(dst, f)
	if body, ok := strings.CutPrefix(f, arabicArticle); ok && body != "" {
		if utf8.RuneCountInString(body) >= minWordRunes {
			dst = append(dst, body)
		}
		dst = appendStems(dst, body)
	}
	return dst
}

// appendStems appends the query tokens of 3+ runes that f extends by one
// allowed inflection (the inverse of extendsInflected).
func appendStems(dst []string, f string) []string {
	if isASCII(f) {
		return appendASCIIStems(dst, f)
	}
	add := func(q string) {
		if utf8.RuneCountInString(q) >= minWordRunes {
			dst = append(dst, q)
		}
	}
	// Plain suffixes: walk back over the last runes of f; the longest
	// ending considered is "ings" (4 runes). A prefix of at least
	// minWordRunes·UTFMax bytes has minWordRunes runes without counting.
	end := len(f)
	for n := 1; n <= 4 && end > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(f[:end])
		end -= size
		if allowedSuffix(f[end:]) {
			if end >= minWordRunes*utf8.UTFMax {
				dst = append(dst, f[:end])
			} else {
				add(f[:end])
			}
		}
	}
	if strings.HasSuffix(f, "ing") || strings.HasSuffix(f, "ed") {
		addIngEdStems(f, add)
	}
	return dst
}

// appendASCIIStems is appendStems for an ASCII token, where only the
// English endings can apply and a byte is a rune: the common case, and the
// hot loop of indexing.
func appendASCIIStems(dst []string, f string) []string {
	add := func(q string) {
		if len(q) >= minWordRunes {
			dst = append(dst, q)
		}
	}
	n := len(f)
	if n < minWordRunes+1 {
		return dst
	}
	switch f[n-1] {
	case 's':
		add(f[:n-1]) // s
		if f[n-2] == 'e' {
			add(f[:n-2]) // es
		}
		if strings.HasSuffix(f, "ings") {
			add(f[:n-4])
		}
		return dst
	case 'd':
		add(f[:n-1]) // d
		if f[n-2] == 'e' {
			add(f[:n-2]) // ed
		}
	case 'g':
		if strings.HasSuffix(f, "ing") {
			add(f[:n-3])
		}
	default:
		return dst
	}
	addIngEdStems(f, add)
	return dst
}

// addIngEdStems adds the stems of the doubled-consonant and silent-e
// rules: logging, logged → log; using → use.
func addIngEdStems(f string, add func(string)) {
	for _, ending := range [...]string{"ing", "ed"} {
		base, ok := strings.CutSuffix(f, ending)
		if !ok {
			continue
		}
		if n := len(base); n >= 2 && base[n-1] == base[n-2] && isDoublingConsonant(base[n-1]) {
			add(base[:n-1])
		}
		if ending == "ing" {
			add(base + "e")
		}
	}
}

// isWordToken reports whether tok is a whole-run token rather than a
// bigram: tokens are of one class, so the first character decides.
func isWordToken(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return classify(r) == classWord
}
