package score

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/memory"
	"pgregory.net/rapid"
)

// asciiFragments are ASCII pieces that stress what scoreSearch must get
// right: inflections and near misses (stopped, login), the silent-e rule
// (use, using, configure, configuring), doubled consonants, short runs,
// identifier chains of every shape (a_b, x__y, create_issue_s), digits and
// upper case.
var asciiFragments = []string{
	"deploy", "deploys", "deployed", "deployment", "redeploy", "owner", "owners",
	"use", "used", "user", "using", "uses", "us", "log", "login", "logging", "logged",
	"stop", "stopped", "stops", "configure", "configuring", "configured", "thing",
	"create_issue", "create_issues", "issue", "create", "mcp__github__create_issue",
	"a_b", "x__y", "ab", "a", "_", "__", "404", "v2", "Deploy", "LOGGING", "tests", "testing",
}

var asciiSeparators = []string{" ", "", "_", "-", "\n", ".", "__", "/"}

func asciiTextGen(maxParts int) *rapid.Generator[string] {
	return fragmentTextGen(asciiFragments, asciiSeparators, maxParts)
}

// fragmentTextGen draws up to maxParts fragments, each followed by a
// separator.
func fragmentTextGen(fragments, separators []string, maxParts int) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		for range rapid.IntRange(0, maxParts).Draw(t, "parts") {
			b.WriteString(rapid.SampledFrom(fragments).Draw(t, "fragment"))
			b.WriteString(rapid.SampledFrom(separators).Draw(t, "sep"))
		}
		return b.String()
	})
}

// TestPropScoreASCIIEqualsTokens: on ASCII documents, the byte loop gives
// exactly the score that the general tokenizer does, for every query
// (including non-ASCII tokens, which must find nothing).
func TestPropScoreASCIIEqualsTokens(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := &memory.Document{
			Title:       asciiTextGen(4).Draw(t, "title"),
			Description: asciiTextGen(6).Draw(t, "description"),
			Body:        asciiTextGen(20).Draw(t, "body"),
		}
		qtext := asciiTextGen(8).Draw(t, "query")
		if rapid.Bool().Draw(t, "nonASCII") {
			qtext += " сервер 部署"
		}
		q := NewQuery(qtext, nil)
		text, ascii := normalizedTextASCII(d)
		if !ascii {
			t.Fatalf("ASCII document reported non-ASCII: %q", text)
		}
		if text != normalizedText(d) {
			t.Fatalf("normalizedTextASCII %q, normalizedText %q", text, normalizedText(d))
		}
		got, want := asciiMasks(&q, &text), tokenMasks(&q, &text)
		if got != want {
			t.Fatalf("query %q: byte loop masks %v, tokens %v (doc %+v)", q.Tokens(), got, want, d)
		}
	})
}

// TestScoreASCIICases pins the inflection and identifier-chain cases on
// both paths.
func TestScoreASCIICases(t *testing.T) {
	cases := []struct {
		query, body string
		want        int32
	}{
		{"use", "we are using it", BodyWeight},
		{"use", "a user", 0},
		{"log", "logging and login", BodyWeight},
		{"log", "login", 0},
		// The query create_issue is the tokens create, issue and
		// create_issue; the chain token only matches where a chain starts.
		{"create_issue", "call mcp__github__create_issue", 3 * BodyWeight},
		{"create_issue", "call create_issue_s", 2 * BodyWeight},
		{"eta-predictor-cg", "the eta-predictor-cg group", 3 * BodyWeight},
		{"kill.dispatch.writes", "kill the dispatch writes", 3 * BodyWeight},
		{"kill.dispatch.writes", "set kill.dispatch.writes.", 4 * BodyWeight},
		{"create_issue", "x_create_issues", 2 * BodyWeight},
		{"create_issue", "create_issues", 3 * BodyWeight},
		{"issue", "x_create_issues", BodyWeight},
		{"a_b", "a_b", BodyWeight},
		{"a_b", "ca_b", 0},
		{"stop", "unstoppable stopped", BodyWeight},
		{"stop", "unstoppable", 0},
	}
	for _, c := range cases {
		q := NewQuery(c.query, nil)
		d := &memory.Document{Body: c.body}
		text, _ := normalizedTextASCII(d)
		score := func(m [MaxQueryTokens]field) (s int32) {
			for _, x := range m {
				s += fieldPoints[x] / pointsPerWeight
			}
			return s
		}
		if got, tok := score(asciiMasks(&q, &text)), score(tokenMasks(&q, &text)); got != c.want || tok != c.want {
			t.Errorf("query %q in %q: byte loop %d, tokens %d, want %d", c.query, c.body, got, tok, c.want)
		}
	}
}

// TestPropWordRunEnd: the eight-bytes-at-a-time run end is the byte loop's
// on lower-case ASCII text, from any start.
func TestPropWordRunEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.OneOf(rapid.ByteRange('a', 'z'), rapid.ByteRange(0, 127)), 0, 40).Draw(t, "text")
		s := strings.ToLower(string(b))
		i := rapid.IntRange(0, len(s)).Draw(t, "start")
		want := i
		for want < len(s) && asciiWordByte[s[want]] {
			want++
		}
		if got := wordRunEnd(s, i); got != want {
			t.Fatalf("wordRunEnd(%q, %d) = %d, want %d", s, i, got, want)
		}
	})
}

// TestWordRunEndEveryByte puts every lower-case ASCII byte at every
// position of an eight-byte word.
func TestWordRunEndEveryByte(t *testing.T) {
	for c := range 128 {
		for at := range 9 {
			b := []byte(strings.Repeat("a", 12))
			b[at] = strings.ToLower(string(rune(c)))[0]
			s := string(b)
			want := 0
			for want < len(s) && asciiWordByte[s[want]] {
				want++
			}
			if got := wordRunEnd(s, 0); got != want {
				t.Fatalf("wordRunEnd(%q, 0) = %d, want %d", s, got, want)
			}
		}
	}
}

// asciiMasks and tokenMasks are the token masks of the byte loop and of
// the general tokenizer.
func asciiMasks(q *Query, text *docText) (m [MaxQueryTokens]field) {
	var buf []string
	scoreASCII(q, text, &buf, &m)
	return m
}

func tokenMasks(q *Query, text *docText) (m [MaxQueryTokens]field) {
	var buf []string
	text.forEachKey(q, &buf, func(k string, f field) { q.apply(&m, k, f) })
	return m
}

// TestScoreFieldSplits: wherever scoreField's byte loop stops (upper
// case, a byte of a multi-byte code point, a joiner before one, a mark
// after a separator it may compose with) and hands the rest of the field
// on, the masks are those of the general path on the whole field. The
// query holds the keys of the normalised field, its raw tokens and every
// run of lower-case ASCII letters and digits, so that a token found in a
// part of the field and not in the whole shows too.
func TestScoreFieldSplits(t *testing.T) {
	fragments := append(slices.Clone(scriptFragments), "=\u0338", "\u0338x", " \u0301a", "Ab", "aB", "ab-Cd", "ab_Cd", "ab-é", "x-Ñ")
	gen := fragmentTextGen(fragments, scriptSeparators, 8)
	rapid.Check(t, func(t *rapid.T) {
		s := gen.Draw(t, "field")
		var buf, own []string
		forEachFieldKey(nil, Normalize(s), fieldBody, &buf, func(k string, _ field) { own = append(own, k) })
		own = append(own, AppendTokens(nil, s)...)
		own = append(own, strings.FieldsFunc(s, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') })...)
		q := probeQuery(rapid.SliceOfN(rapid.SampledFrom(append(own, "none")), 1, MaxQueryTokens).Draw(t, "tokens"))
		var got, want [MaxQueryTokens]field
		scoreField(&q, s, fieldBody, &buf, &got)
		forEachFieldKey(&q, Normalize(s), fieldBody, &buf, func(k string, f field) { q.apply(&want, k, f) })
		if diff := cmp.Diff(want[:len(q.tokens)], got[:len(q.tokens)]); diff != "" {
			t.Fatalf("field %+q, query %q: masks (-general +scoreField):\n%s", s, q.tokens, diff)
		}
	})
}

// TestPropMayMatchASCII: the byte loops' prefilter says what
// mayMatchFolding says of every ASCII token of 3+ bytes (what the loops
// ask it of), for queries of any text.
func TestPropMayMatchASCII(t *testing.T) {
	tok := rapid.StringMatching(`[a-z0-9_.-]{3,14}`)
	rapid.Check(t, func(t *rapid.T) {
		q := NewQuery(rapid.OneOf(asciiTextGen(6), scriptTextGen(6)).Draw(t, "query"), nil)
		known := []string{"using", "tries", "ing", "xxing", "abie", "abies"}
		for _, k := range q.tokens {
			if isASCII(k) && len(k) >= 3 {
				known = append(known, k, k+"s", k+"ing")
			}
		}
		for _, f := range rapid.SliceOfN(rapid.OneOf(tok, rapid.SampledFrom(known)), 1, 30).Draw(t, "tokens") {
			if got, want := q.mayMatchASCII(f), q.mayMatchFolding(f, false); got != want {
				t.Fatalf("query %q, token %q: mayMatchASCII %v, mayMatchFolding %v", q.tokens, f, got, want)
			}
		}
	})
}

// TestIEKeyElsewhere tables the filters' -ie rule, which mayMatchFolding
// and asciiKeyElsewhere share: "ie" at a token's third and fourth bytes,
// in a token of five bytes or more. Each row also checks what the rule is
// for: a key of the token (appendKeys) that does not start with the
// token's first three bytes is one that asciiKeyElsewhere lets through.
func TestIEKeyElsewhere(t *testing.T) {
	for _, tc := range []struct {
		tok  string
		want bool
	}{
		{"tries", true},
		{"tried", true},
		{"flies", true},
		{"quiet", true},   // the rule looks at bytes, not at endings
		{"alien", true},   // likewise
		{"ties", false},   // four bytes
		{"tie", false},    // three
		{"cookie", false}, // "ie" elsewhere: its stem "cooky" keeps the head
		{"studies", false},
		{"piece", false}, // "ie" at the second and third bytes
		{"xxiexx", true},
		{"xxeixx", false},
		{"using", false}, // asciiKeyElsewhere's other rule, the silent e
	} {
		if got := ieKeyElsewhere(tc.tok); got != tc.want {
			t.Errorf("ieKeyElsewhere(%q) = %v, want %v", tc.tok, got, tc.want)
		}
		if got := asciiKeyElsewhere(tc.tok); tc.want && !got {
			t.Errorf("asciiKeyElsewhere(%q) = false, but the -ie rule holds", tc.tok)
		}
		for _, k := range appendKeys(nil, tc.tok) {
			if len(k) >= 3 && k[:3] != tc.tok[:3] && !asciiKeyElsewhere(tc.tok) {
				t.Errorf("key %q of %q starts elsewhere, and asciiKeyElsewhere says no", k, tc.tok)
			}
		}
	}
	// mayMatchFolding applies the same rule to every token (a non-ASCII
	// one too): a query with no head of "tries" still lets it through.
	q := NewQuery("deploy", nil)
	if !q.mayMatchFolding("tries", false) || !q.mayMatchFolding("xxiexx", false) {
		t.Error("mayMatchFolding drops a token the -ie rule lets through")
	}
}

// TestHeadSum: headBit, which writes headSum out, places every token of
// three bytes where headSum does (the CJK loop hashes heads by headSum).
func TestHeadSum(t *testing.T) {
	for c0 := range 256 {
		for c1 := range 256 {
			for _, c2 := range []byte{0, 0x41, 0x80, 0xBF, 0xFF} {
				tok := string([]byte{byte(c0), byte(c1), c2})
				if got, want := headBit(tok), headSum(byte(c0), byte(c1), c2)%headBits; got != want {
					t.Fatalf("headBit(%q) = %d, headSum %d", tok, got, want)
				}
			}
		}
	}
}
