package eval

import (
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// blindEPath is the third corpus written for issue 14 by a session that
// never read the scorer (docs/evaluation.md, decision 0505). Like
// blindd_test.go, this file checks only the corpus's own promises, never
// how well a scorer does on it.
const blindEPath = "testdata/blind-e.json"

// TestBlindECategories checks that every case names its category in its id
// prefix and that each category keeps the shape decision 0505 gives it.
func TestBlindECategories(t *testing.T) {
	want := blindShape{
		counts: map[string]int{
			"plain": 71, "common": 57, "gap": 20, "xlang": 25, "accent": 28,
			"brit": 14, "longbody": 15, "tool": 18,
		},
		rules:    issue14Rules(),
		longBody: 3001, // over 3,000
		minDocs:  150,
	}
	c, _ := checkBlindShape(t, blindEPath, want)
	// The common- questions come in many languages: their id is
	// common-<language>-<n>.
	langs := map[string]bool{}
	for _, k := range c.Cases {
		if rest, ok := strings.CutPrefix(k.ID, "common-"); ok {
			lang, _, _ := strings.Cut(rest, "-")
			langs[lang] = true
		}
	}
	if len(langs) < 10 {
		t.Errorf("common- cases in %d languages, want at least 10", len(langs))
	}
	plainNotes := 0
	for _, d := range c.Documents {
		if d.Name == "" && d.Description == "" {
			plainNotes++
		}
	}
	if plainNotes < 10 {
		t.Errorf("%d notes without title and description, want at least 10", plainNotes)
	}
}

// TestBlindEToolCases checks that the silent tool cases are exactly those
// whose agent just used the tool, and that a usage note answers at least
// one case while another tool is active.
func TestBlindEToolCases(t *testing.T) {
	checkIssue14ToolCases(t, blindEPath, 14, 8)
}

// TestBlindEAccentCases checks that every accent- case differs from one of
// its relevant notes by marks: the query was typed with combining marks,
// or a query word appears in the note only with marks (dropped, or
// transliterated as ae/oe/ue), or a query word with marks appears in the
// note without them (added).
func TestBlindEAccentCases(t *testing.T) {
	c, err := Load(blindEPath)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	docs := docByID(c)
	for _, k := range c.Cases {
		if !strings.HasPrefix(k.ID, "accent-") {
			continue
		}
		if norm.NFC.String(k.Query) != k.Query {
			continue // combining marks typed
		}
		ok := false
		for _, id := range k.Relevant {
			d := docs[id]
			text := d.Name + "\n" + d.Description + "\n" + d.Body
			raw, folded := wordSet(strings.ToLower(norm.NFC.String(text))), wordSet(foldMarks(text))
			for _, w := range words(strings.ToLower(k.Query)) {
				f := foldMarks(w)
				dropped := !raw[w] && (folded[w] || folded[untransliterate(w)])
				added := f != w && !raw[w] && raw[f]
				if dropped || added {
					ok = true
				}
			}
		}
		if !ok {
			t.Errorf("%s: %q differs from no relevant note by marks", k.ID, k.Query)
		}
	}
}

// foldMarks lower-cases s, decomposes it, drops the nonspacing marks and
// writes the letters that do not decompose as their plain forms: what a
// keyboard without accents types.
func foldMarks(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(s)) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'ł':
			b.WriteRune('l')
		case r == 'ø':
			b.WriteRune('o')
		case r == 'ı':
			b.WriteRune('i')
		case r == 'đ':
			b.WriteRune('d')
		case r == 'ß':
			b.WriteString("ss")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// untransliterate undoes the German keyboard spelling of umlauts (ae, oe,
// ue), so that "pruefen" can be compared with the folded "prufen".
func untransliterate(w string) string {
	return strings.NewReplacer("ae", "a", "oe", "o", "ue", "u").Replace(w)
}

// words splits s into runs of letters, digits and marks.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Mn, r)
	})
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words(s) {
		m[w] = true
	}
	return m
}
