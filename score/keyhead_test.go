package score

import (
	"testing"

	"pgregory.net/rapid"
)

// keyWordGen draws lower-case ASCII word tokens of 3+ bytes that reach
// every rule appendKeys and lightStem apply: a random start, a root of
// the British tables or a start with "ie" at its third byte, then an
// ending the stemmer or the silent-e and doubled-consonant rules take off
// or rewrite; a short start and an ending; or a whole British word.
func keyWordGen() *rapid.Generator[string] {
	var roots []string
	for _, r := range ourRoots {
		roots = append(roots, r+"our")
	}
	roots = append(roots, iseRoots[:]...)
	var british []string
	for w := range britishWords {
		british = append(british, w)
	}
	endings := []string{"", "s", "es", "ies", "ied", "ie", "ing", "ings", "ed", "d", "e",
		"sses", "esse", "ess", "is", "ise", "ised", "ises", "ising", "isation", "ys", "yse",
		"ysed", "ysing", "our", "ours", "ite", "ly", "ier", "iest"}
	return rapid.Custom(func(t *rapid.T) string {
		var w string
		switch rapid.IntRange(0, 4).Draw(t, "kind") {
		case 0:
			w = rapid.StringMatching(`[a-z]{1,6}`).Draw(t, "start")
			if rapid.Bool().Draw(t, "double") {
				w += w[len(w)-1:] // a doubled consonant before -ing, -ed
			}
		case 1:
			w = rapid.SampledFrom(roots).Draw(t, "root")
		case 2:
			w = rapid.StringMatching(`[a-z]{0,2}ie`).Draw(t, "ie")
		case 3:
			// A short start, where the rules' length guards decide
			// (tries, using, logged, added).
			w = rapid.StringMatching(`[a-z]{1,3}`).Draw(t, "short")
			return w + rapid.SampledFrom([]string{"ing", "ings", "ed", "ied", "ies", "ie", "s"}).Draw(t, "short ending")
		default:
			return rapid.SampledFrom(british).Draw(t, "british") + rapid.SampledFrom([]string{"", "s", "d", "ing"}).Draw(t, "tail")
		}
		w += rapid.SampledFrom(endings).Draw(t, "ending")
		if len(w) < minWordRunes {
			w += "ing"
		}
		return w
	})
}

// TestPropKeysKeepHead is what the prefilters (mayMatchASCII,
// mayMatchFolding) rely on for an ASCII token: every key appendKeys files
// it under, of minWordRunes bytes or more, is no longer than the token
// and starts with the token's first three bytes (so it has the token's
// head), except the silent-e key of a five-byte "-ing" token ("using",
// "use"), which asciiKeyElsewhere lets through. The -ie rule
// (ieKeyElsewhere) is not needed for it: no key of today's stemmer turns
// an "ie" at the third byte into a "y".
func TestPropKeysKeepHead(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := keyWordGen().Draw(t, "token")
		silentE := len(f) == 5 && f[2:] == "ing"
		for _, k := range appendKeys(nil, f) {
			if len(k) < minWordRunes {
				continue
			}
			if len(k) > len(f) {
				t.Fatalf("key %q of %q is longer than the token", k, f)
			}
			if k[:3] != f[:3] && !silentE {
				t.Fatalf("key %q of %q does not start with the token's head", k, f)
			}
		}
	})
}

// TestPropMayMatchASCIIFindsKeys: for a query made of one key of an ASCII
// token (so a query that matches it), the byte loops' prefilter lets the
// token through: the filter never drops a token one of whose keys is a
// query key.
func TestPropMayMatchASCIIFindsKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := keyWordGen().Draw(t, "token")
		keys := appendKeys(nil, f)
		q := NewQuery(rapid.SampledFrom(keys).Draw(t, "query"), nil)
		for _, k := range keys {
			if _, ok := q.position(k); ok && !q.mayMatchASCII(f) {
				t.Fatalf("query %q holds key %q of %q, but mayMatchASCII drops the token", q.tokens, k, f)
			}
		}
	})
}
