package eval

import (
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/score"
)

const fixturePath = "testdata/fixture.json"

func loadFixture(t testing.TB) *Corpus {
	t.Helper()
	c, err := Load(fixturePath)
	if err != nil {
		t.Fatalf("the fixture does not load: %v", err)
	}
	return c
}

func docByID(c *Corpus) map[string]*Document {
	m := make(map[string]*Document, len(c.Documents))
	for i := range c.Documents {
		m[c.Documents[i].ID] = &c.Documents[i]
	}
	return m
}

// TestFixtureShape checks the size and coverage the issue asks of the
// fixture, so that trimming it later cannot go unnoticed.
func TestFixtureShape(t *testing.T) {
	c := loadFixture(t)
	if n := len(c.Documents); n < 35 {
		t.Errorf("%d documents, want at least 35", n)
	}
	if n := len(c.Cases); n < 90 {
		t.Errorf("%d cases, want at least 90", n)
	}
	per := map[string]int{}
	for _, k := range c.Cases {
		per[k.Slice]++
	}
	for _, s := range Slices() {
		if per[s] < 5 {
			t.Errorf("slice %s has %d cases, want at least 5", s, per[s])
		}
	}
	scopes := map[string]int{}
	for _, d := range c.Documents {
		scopes[d.Scope]++
		if n := len([]rune(d.Body)); n < 100 || n > 2000 {
			t.Errorf("document %s: body of %d characters, want a realistic 100–2,000", d.ID, n)
		}
	}
	if scopes["project"] == 0 || scopes["user"] == 0 {
		t.Errorf("documents per scope %v, want both scopes", scopes)
	}
}

// TestFixtureNearDuplicatesAcrossScopes: documents compete. At least one
// title appears in both scopes, and every case whose top is one of such a
// pair lists the other as relevant too, so ranking (not luck) decides.
func TestFixtureNearDuplicatesAcrossScopes(t *testing.T) {
	c := loadFixture(t)
	byTitle := map[string][]*Document{}
	for i := range c.Documents {
		d := &c.Documents[i]
		byTitle[d.Name] = append(byTitle[d.Name], d)
	}
	pairs := 0
	for _, ds := range byTitle {
		if len(ds) > 1 && ds[0].Scope != ds[1].Scope {
			pairs++
		}
	}
	if pairs == 0 {
		t.Error("no title appears in both scopes")
	}
}

// TestFixtureScripts: the slices hold what their names promise.
func TestFixtureScripts(t *testing.T) {
	c := loadFixture(t)
	docs := docByID(c)
	has := func(s string, tab *unicode.RangeTable) bool {
		return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(tab, r) }) >= 0
	}
	accentedLatin := func(s string) bool {
		return strings.IndexFunc(norm.NFC.String(s), func(r rune) bool { return r > unicode.MaxASCII && unicode.Is(unicode.Latin, r) }) >= 0
	}
	seen := map[string]bool{}
	for _, k := range c.Cases {
		switch k.Slice {
		case SliceOtherScript:
			for name, tab := range map[string]*unicode.RangeTable{"Cyrillic": unicode.Cyrillic, "Greek": unicode.Greek, "Arabic": unicode.Arabic} {
				if has(k.Query, tab) {
					seen[name] = true
				}
			}
			if accentedLatin(k.Query) {
				seen["accented Latin"] = true
			}
		case SliceThai:
			if !has(k.Query, unicode.Thai) {
				t.Errorf("thai case %s has no Thai in its query", k.ID)
			}
		case SliceNFKC:
			changes := norm.NFKC.String(k.Query) != k.Query
			for _, id := range k.Relevant {
				d := docs[id]
				changes = changes || norm.NFKC.String(d.Name+d.Description+d.Body) != d.Name+d.Description+d.Body
			}
			if !changes {
				t.Errorf("nfkc case %s: neither the query nor a relevant document changes under NFKC", k.ID)
			}
		case SliceNoiseFilter:
			if len(k.RecentTools) > 0 {
				seen["recent tools"] = true
			}
		case SliceNoResult:
			if len(score.Tokens(k.Query)) == 0 {
				for _, r := range k.Query {
					if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Katakana, r) {
						seen["single CJK character"] = true
					}
					if unicode.Is(unicode.Latin, r) {
						seen["two-letter words"] = true
					}
				}
			}
		}
	}
	for _, want := range []string{"Cyrillic", "Greek", "Arabic", "accented Latin", "recent tools", "single CJK character", "two-letter words"} {
		if !seen[want] {
			t.Errorf("no case covers %s", want)
		}
	}
}

// fieldTexts returns the parts of a document the scorer reads.
func fieldTexts(d *Document) []string {
	return []string{d.Name, d.Description, score.BodyWindow(d.Body)}
}

// sharedTokens lists the query tokens that match a token of any field
// under the shipped rule, or that occur inside a field's normalised text
// at all (stricter: stays true if a later matching rule loosens).
func sharedTokens(query string, fields []string) []string {
	var shared []string
	for _, q := range score.NewQuery(query, nil).Tokens() {
		hit := false
		for _, f := range fields {
			if strings.Contains(score.Normalize(f), q) {
				hit = true
			}
			for _, ft := range score.Tokens(f) {
				hit = hit || score.Matches(q, ft)
			}
		}
		if hit {
			shared = append(shared, q)
		}
	}
	return shared
}

// TestSemanticCasesShareNoToken is the check "by a test, not by eye": a
// semantic case's query shares no token with any of its relevant
// documents' title, description or body window.
func TestSemanticCasesShareNoToken(t *testing.T) {
	c := loadFixture(t)
	docs := docByID(c)
	n := 0
	for _, k := range c.Cases {
		if k.Slice != SliceSemantic {
			continue
		}
		n++
		for _, id := range k.Relevant {
			if s := sharedTokens(k.Query, fieldTexts(docs[id])); len(s) > 0 {
				t.Errorf("semantic case %s shares %q with %s: it is lexical", k.ID, s, id)
			}
		}
	}
	if n == 0 {
		t.Fatal("no semantic cases")
	}
}

// TestBodyOnlyCases: a body-only case matches its relevant documents
// only in the body (not in title or description); some match only past
// the body window a prompt shows (the scorer reads the whole body,
// docs/decisions/0207-folding-stems.md), and those documents' bodies are
// longer than the window.
func TestBodyOnlyCases(t *testing.T) {
	c := loadFixture(t)
	docs := docByID(c)
	beyond := 0
	for _, k := range c.Cases {
		if k.Slice != SliceBodyOnly || k.NoResult() {
			continue
		}
		for _, id := range k.Relevant {
			d := docs[id]
			if s := sharedTokens(k.Query, []string{d.Name, d.Description}); len(s) > 0 {
				t.Errorf("body-only case %s matches %s outside the body: %q", k.ID, id, s)
			}
			window := score.BodyWindow(d.Body)
			inWindow := len(sharedTokens(k.Query, []string{window})) > 0
			if !inWindow && len(sharedTokens(k.Query, []string{d.Body[len(window):]})) == 0 {
				t.Errorf("body-only case %s does not match %s's body at all", k.ID, id)
			}
			if !inWindow {
				beyond++
				if n := len([]rune(d.Body)); n <= memory.BodyWindow {
					t.Errorf("document %s: body of %d characters is inside the window", d.ID, n)
				}
			}
		}
	}
	if beyond == 0 {
		t.Error("no body-only case names a term only beyond the window")
	}
}

// TestThaiCasesNeedSegmentation: a Thai query's phrase never occurs as a
// whole token of its relevant document (so a scorer that made every Thai
// run one token would miss every case), and most do not occur even as a
// substring (so substring matching of whole runs would miss them too).
func TestThaiCasesNeedSegmentation(t *testing.T) {
	c := loadFixture(t)
	docs := docByID(c)
	runs := func(s string) []string {
		return strings.FieldsFunc(score.Normalize(s), func(r rune) bool { return !unicode.Is(unicode.Thai, r) })
	}
	answerable, notSubstring := 0, 0
	for _, k := range c.Cases {
		if k.Slice != SliceThai || k.NoResult() {
			continue
		}
		answerable++
		sub := false
		for _, q := range runs(k.Query) {
			for _, id := range k.Relevant {
				for _, f := range fieldTexts(docs[id]) {
					for _, r := range runs(f) {
						if r == q {
							t.Errorf("thai case %s: %q is a whole Thai run of %s", k.ID, q, id)
						}
						sub = sub || strings.Contains(r, q)
					}
				}
			}
		}
		if !sub {
			notSubstring++
		}
	}
	if answerable < 5 || notSubstring*3 < answerable*2 {
		t.Errorf("%d answerable Thai cases, %d not even a substring; want ≥ 5 and ≥ two thirds", answerable, notSubstring)
	}
}
