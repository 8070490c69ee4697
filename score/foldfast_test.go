package score

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// foldFastDomain lists the non-ASCII code points foldFast covers.
func foldFastDomain() []rune {
	var rs []rune
	for r := rune(0xC0); r <= 0xFF; r++ {
		if r != 0xD7 && r != 0xF7 {
			rs = append(rs, r)
		}
	}
	for r := rune(0x400); r <= 0x45F; r++ {
		rs = append(rs, r)
	}
	return rs
}

// checkFoldFast compares the fast paths with foldFull and needsFoldFull on
// s: where a fast path answers, it answers as the definition does.
func checkFoldFast(t interface{ Fatalf(string, ...any) }, s string) {
	want := foldFull(s)
	if got, ok := foldFast(s); ok && got != want {
		t.Fatalf("foldFast(%q) = %q, foldFull = %q", s, got, want)
	}
	if got := fold(s); got != want {
		t.Fatalf("fold(%q) = %q, foldFull = %q", s, got, want)
	}
	if needs, ok := needsFoldFast(s); ok && needs != needsFoldFull(s) {
		t.Fatalf("needsFoldFast(%q) = %v, needsFoldFull = %v", s, needs, !needs)
	}
	if got, n, ok := foldHeadFast(s); ok && string(got[:n]) != firstRunes(want, 3) {
		t.Fatalf("foldHeadFast(%q) = %q, fold = %q", s, got[:n], want)
	}
	if got, changed, umlaut, ok := appendFoldFast([]byte("x"), s, false); ok && (string(got) != "x"+want || changed != (want != s) || umlaut != hasUmlaut(s)) {
		t.Fatalf("appendFoldFast(%q) = %q, %v, umlaut %v; foldFull = %q, hasUmlaut %v", s, got, changed, umlaut, want, hasUmlaut(s))
	}
	if got, changed, _, ok := appendFoldFast(nil, s, true); ok && hasUmlaut(s) && (string(got) != germanFold(s) || !changed) {
		t.Fatalf("appendFoldFast(%q, german) = %q, %v; germanFold = %q", s, got, changed, germanFold(s))
	}
}

// TestFoldFastEveryRune: every code point of foldFast's ranges, alone and
// between ASCII letters, folds as foldFull folds it; and foldFast covers
// every one of them but × and ÷.
func TestFoldFastEveryRune(t *testing.T) {
	var missed []rune
	for r := rune(0x80); r <= 0x7FF; r++ {
		s := string(r)
		_, ok := foldFast(s)
		if in := 0xC0 <= r && r <= 0xFF && r != 0xD7 && r != 0xF7 || 0x400 <= r && r <= 0x45F; in != ok {
			missed = append(missed, r)
		}
		checkFoldFast(t, s)
		checkFoldFast(t, "ab"+s+"c")
	}
	if diff := cmp.Diff([]rune(nil), missed); diff != "" {
		t.Errorf("code points foldFast covers differ from its ranges (-want +got):\n%s", diff)
	}
}

// TestFoldFastPairs: every pair of covered code points (and ASCII between
// them) folds as foldFull folds it, so no fold depends on its neighbour.
func TestFoldFastPairs(t *testing.T) {
	dom := append(foldFastDomain(), 'a', 's', 'z', '_', '0')
	for _, a := range dom {
		for _, b := range dom {
			checkFoldFast(t, string(a)+string(b)+"x")
		}
	}
}

// TestPropFoldFast: on random text of covered, uncovered and combining
// code points the fast paths agree with the definition.
func TestPropFoldFast(t *testing.T) {
	alphabet := append(foldFastDomain(), 'a', 'e', 'i', 'n', 'g', 's', '_',
		0x0301, 0x0308, 0x0306, // combining acute, diaeresis, breve
		0x0142, 0x03AC, 0x0627, 0x0623, 0xD7, 0xF7, 0x4E2D, 0x0E01, 0xFFFD)
	rapid.Check(t, func(t *rapid.T) {
		rs := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 12).Draw(t, "runes")
		checkFoldFast(t, string(rs))
		// A cut inside a two-byte sequence is invalid UTF-8.
		if s := string(rs); len(s) > 1 {
			checkFoldFast(t, s[:len(s)-1])
		}
	})
}

// FuzzFoldFast: the fast paths agree with the definition on any input.
func FuzzFoldFast(f *testing.F) {
	for _, s := range []string{"ёлка", "мой", "café", "straße", "ÀÉÎõü", "×", "й\u0306", "\xd1\xa0", "céing"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFoldFast(t, s)
	})
}

// prefilterWords are words whose keys and folded keys meet: Latin-1 and
// Cyrillic words with and without their accents, inflected, with the
// silent-e key (éting → éte → ete) and the -ies stem.
var prefilterWords = []string{"ёлка", "елка", "мой", "мои", "йод", "иод", "сервер", "серверами",
	"café", "cafe", "cafés", "Straße", "strasse", "élan", "elan", "éting", "ete", "etinge", "ñandú",
	"nandu", "größe", "groesse", "grosse", "tries", "triés", "ÿes", "yes", "Ёж", "ёжик", "ёжing", "ежe", "жжing", "жжe", "über", "uber", "ueber", "müller", "mueller", "muller", "ärger", "aerger", "öl", "oel",
	"ø", "søren", "ΒΆΣΗΣ", "βάσης", "أحمد", "احمد", "サーバー", "サーバ", "部署", "署名", "กาแฟร้อน", "แฟร้อน", "서버"}

// checkPrefilter fails when direct scoring's prefilter (mayMatch) hides
// a key or a folded key of field from query: the masks of the field are
// the same with the filter and without it.
func checkPrefilter(t interface{ Fatalf(string, ...any) }, query, fieldText string) {
	q := NewQuery(query, nil)
	text := docText{Normalize(fieldText)}
	var filtered, all [MaxQueryTokens]field
	var buf []string
	text.forEachKey(&q, &buf, func(k string, f field) { q.apply(&filtered, k, f) })
	text.forEachKey(nil, &buf, func(k string, f field) { q.apply(&all, k, f) })
	if filtered != all {
		t.Fatalf("query %q, field %q: masks %v with the prefilter, %v without", q.Tokens(), text[0], filtered, all)
	}
}

// TestFoldedPrefilterPairs: every pair of prefilterWords.
func TestFoldedPrefilterPairs(t *testing.T) {
	for _, q := range prefilterWords {
		for _, f := range prefilterWords {
			checkPrefilter(t, q, f)
		}
	}
}

// TestPropUmlautPrefilter: the prefilter never hides a key, a folded key
// or a German transliteration (ü → ue) of a word spelt with umlauts from a
// query spelt either way: words over a few letters, ä ö ü ß and é among
// them, against the word itself, its transliteration, its letters without
// dots, or another such word.
func TestPropUmlautPrefilter(t *testing.T) {
	letter := rapid.SampledFrom([]string{"a", "e", "o", "u", "r", "s", "n", "ä", "ö", "ü", "ß", "é", "Ü"})
	word := rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(letter, 1, 9).Draw(t, "letters"), "")
	})
	spell := strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ü", "Ue")
	plain := strings.NewReplacer("ä", "a", "ö", "o", "ü", "u", "Ü", "U")
	rapid.Check(t, func(t *rapid.T) {
		field := word.Draw(t, "field")
		query := field
		switch rapid.IntRange(0, 3).Draw(t, "query") {
		case 1:
			query = spell.Replace(field)
		case 2:
			query = plain.Replace(field)
		case 3:
			query = word.Draw(t, "other")
		}
		if rapid.Bool().Draw(t, "swap") {
			query, field = field, query
		}
		checkPrefilter(t, query, field+rapid.SampledFrom([]string{"", "ing", "s", "es", "ed"}).Draw(t, "ending"))
	})
}

// TestPropFoldedPrefilter: texts of several prefilterWords.
func TestPropFoldedPrefilter(t *testing.T) {
	gen := rapid.Custom(func(t *rapid.T) string {
		ws := rapid.SliceOfN(rapid.SampledFrom(prefilterWords), 0, 6).Draw(t, "words")
		s := ""
		for _, w := range ws {
			s += w + rapid.SampledFrom([]string{" ", "", "_"}).Draw(t, "sep")
		}
		return s
	})
	rapid.Check(t, func(t *rapid.T) {
		checkPrefilter(t, gen.Draw(t, "query"), gen.Draw(t, "field"))
	})
}

// firstRunes returns the first n code points of s.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// TestUmlautPrefilterRejects: a token with an umlaut whose fold and whose
// transliteration both start away from every query head is passed over
// (every such token used to be let through); one whose transliteration
// meets a query token's head is not.
func TestUmlautPrefilterRejects(t *testing.T) {
	q := NewQuery("deploy server", nil)
	for _, tc := range []struct {
		token string
		want  bool
	}{
		{"größe", false},
		{"über", false},
		{"müller", false},
		{"serös", true},  // fold's head "ser"
		{"dépüt", true},  // fold's head "dep"
		{"gaüst", false}, // "gau", "gau"
	} {
		if got := q.foldedMayMatch(tc.token); got != tc.want {
			t.Errorf("foldedMayMatch(%q) = %v, want %v", tc.token, got, tc.want)
		}
	}
	if q := NewQuery("ueber", nil); !q.foldedMayMatch("über") {
		t.Error(`foldedMayMatch("über") is false for the query "ueber"`)
	}
}
