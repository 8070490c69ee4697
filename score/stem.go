package score

import "strings"

// lightStem reduces an ASCII word to a light stem by taking off English
// inflections, so that a query word and a field word that are both
// inflected ("retries" and "retry", "escalations" and "escalation",
// "retrying" and "retried") meet. Rules, the first that leaves at least
// minWordRunes bytes applying:
//
//	-ies, -ied → -y             (retries, retried → retry)
//	-sses → -ss                 (processes → process)
//	-ings, -ing, -ed            (settings, logging, stopped; a doubled
//	                             final consonant other than l, s, z undone)
//	-s, but not -ss, -us, -is   (jobs → job; class, status, redis stay)
//
// repeated until none applies, so the stem of a stem is itself (the index
// files field tokens under stems and a Query holds stems, so the naive
// scorer's Matches must give the same answer for either). Bigrams,
// non-ASCII words and snake_case identifiers are their own stem: the
// inflection rule already covers their endings one way, and a name is not
// a word to be stemmed. There is no -e rule ("note" would meet "not") and
// no -er rule ("user" is not "use").
func lightStem(w string) string {
	if len(w) <= minWordRunes || !isASCII(w) || !isWordToken(w) || strings.IndexByte(w, '_') >= 0 {
		return w
	}
	for {
		s := stemOnce(w)
		if s == w {
			return w
		}
		w = s
	}
}

// stemOnce applies the first rule of lightStem that leaves a stem of at
// least minWordRunes bytes, or returns w.
func stemOnce(w string) string {
	n := len(w)
	ok := func(s string) bool { return len(s) >= minWordRunes }
	if strings.HasSuffix(w, "ies") || strings.HasSuffix(w, "ied") {
		if s := w[:n-3]; ok(s) {
			return s + "y"
		}
	}
	if s := w[:n-2]; strings.HasSuffix(w, "sses") && ok(s) {
		return s
	}
	for _, suffix := range [...]string{"ings", "ing", "ed"} {
		if base, found := strings.CutSuffix(w, suffix); found && ok(base) {
			return undouble(base)
		}
	}
	if strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is") {
		return w
	}
	if s, found := strings.CutSuffix(w, "s"); found && ok(s) {
		return s
	}
	return w
}

// undouble undoes the doubling of a final consonant before -ing or -ed
// (logg → log, stopp → stop), but not of l, s or z, which English words end
// in doubled (install, pass, buzz), and not below minWordRunes bytes (add).
func undouble(s string) string {
	n := len(s)
	if n > minWordRunes && s[n-1] == s[n-2] && isDoublingConsonant(s[n-1]) && !strings.ContainsRune("lsz", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}
