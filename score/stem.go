package score

import "strings"

// lightStem reduces an ASCII word token to a light stem by taking off one
// English inflection, so that a query word and a field word that are both
// inflected ("retries" and "retry", "escalations" and "escalation") can
// meet: "ies"/"ied" become "y", a plural "s" goes (not after s, u or i:
// class, status, redis), and "ing", "ings", "ed" go with a doubled final
// consonant undone (logging → log). The stem keeps at least minWordRunes
// bytes; when no rule leaves that many the token is its own stem. Other
// tokens (bigrams, non-ASCII words, identifiers) are their own stem.
func lightStem(w string) string {
	n := len(w)
	if n <= minWordRunes || !isASCII(w) || !isWordToken(w) || strings.Contains(w, "_") {
		return w
	}
	keep := func(s string) string {
		if len(s) >= minWordRunes {
			return s
		}
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") || strings.HasSuffix(w, "ied"):
		return keep(w[:n-3] + "y")
	case strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case strings.HasSuffix(w, "ings"):
		return keep(undouble(w[:n-4]))
	case strings.HasSuffix(w, "ing"):
		return keep(undouble(w[:n-3]))
	case strings.HasSuffix(w, "ed"):
		return keep(undouble(w[:n-2]))
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return keep(w[:n-1])
	}
	return w
}

// undouble undoes the doubling of a final consonant before -ing or -ed
// (logg → log, stopp → stop), but not of l, s or z, which English words end
// in doubled (install, pass, buzz), and not below three bytes (add).
func undouble(s string) string {
	n := len(s)
	if n >= minWordRunes+1 && s[n-1] == s[n-2] && isDoublingConsonant(s[n-1]) && !strings.ContainsRune("lsz", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}
