package score

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
	"golang.org/x/text/unicode/norm"
	"pgregory.net/rapid"
)

// fragments are pieces of text chosen so that random texts share tokens,
// inflections, near misses and compatibility forms.
var fragments = []string{
	"deploy", "deploys", "deployed", "deployment", "redeploy", "owner", "owners", "ownership",
	"use", "used", "user", "using", "log", "login", "logging", "logged", "stop", "stopped",
	"configure", "configuring", "configured", "thing", "the", "what", "test", "testing", "tests",
	"Deploy", "ＤＥＰＬＯＹ", "ﬁle", "file", "cafe\u0301", "café", "ÇA",
	"сервер", "сервера", "серверами", "сервером", "Сервер", "ΒΆΣΗΣ", "βάσης", "خادم", "الخادم",
	"サーバー", "ｻｰﾊﾞｰ", "部", "部署", "漢字", "abc漢字", "서버", "배포",
	"เซิร์ฟเวอร์", "กาแฟ", "การ", "ເຊີບເວີ", "ລາວ", "ខ្មែរ", "မြန်", "preference", "deadline", "docs",
	"tool usage", "api docs", "gotcha", "create_issue", "mcp__github__create_issue", "github::create_issue",
	"404", "x", "ー", "・", "retry", "retries", "retrying", "retried", "speed", "speeds",
	"escalations", "escalation", "tries", "processes", "process", "エレベーターの",
	"谁负责审校翻译", "审校", "翻译", "的签名密钥", "センター", "点検", "ข้อมูลรายวัน", "สำรอง",
	"categorie", "categories", "category", "adresse", "adresses", "cookies", "Straße",
	"triage", "triaging", "triaged", "cache", "caching", "base", "based", "code", "coding",
	"eta-predictor-cg", "kill.dispatch.writes", "kst-invoices", "v1.2", "-", ".", "Kurier-App",
	"Müller", "Mueller", "Muller", "Lüdenscheid", "Grüße", "gruesse",
	"Sentry: usage", "how to call", "weather", "netflix", "mcp__github__create_issue usage",
}

var separators = []string{" ", " ", "\n", ", ", "-", "", "_", "/"}

func textGen(maxParts int) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(0, maxParts).Draw(t, "parts")
		var b strings.Builder
		for range n {
			b.WriteString(rapid.SampledFrom(fragments).Draw(t, "fragment"))
			b.WriteString(rapid.SampledFrom(separators).Draw(t, "sep"))
		}
		return b.String()
	})
}

func docGen() *rapid.Generator[*memory.Document] {
	return rapid.Custom(func(t *rapid.T) *memory.Document {
		return &memory.Document{
			ID:          memory.ID(fmt.Sprintf("/m/%d.md", rapid.IntRange(0, 1<<20).Draw(t, "id"))),
			Type:        rapid.SampledFrom(memory.Types[:]).Draw(t, "type"),
			Title:       textGen(3).Draw(t, "title"),
			Description: textGen(4).Draw(t, "description"),
			Body:        textGen(12).Draw(t, "body"),
			Modified:    baseTime.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "age")) * time.Hour),
		}
	})
}

// longDocGen is docGen with filler before the body that ends near the
// end of the body window, so matches, noise markers and tool names fall
// inside it, past it or across it.
func longDocGen() *rapid.Generator[*memory.Document] {
	return rapid.Custom(func(t *rapid.T) *memory.Document {
		d := docGen().Draw(t, "doc")
		n := rapid.IntRange(memory.BodyWindow-16, memory.BodyWindow+2).Draw(t, "filler")
		d.Body = strings.Repeat("lorem ", n/6+1)[:n] + d.Body
		return d
	})
}

func queryGen() *rapid.Generator[Query] {
	return rapid.Custom(func(t *rapid.T) Query {
		var tools []string
		if rapid.Bool().Draw(t, "withTools") {
			tools = rapid.SliceOfN(rapid.SampledFrom([]string{
				"mcp__github__create_issue", "create_issue", "jira::search", "Read",
			}), 0, 3).Draw(t, "tools")
		}
		return NewQuery(textGen(6).Draw(t, "query"), tools)
	})
}

// TestPropIndexEqualsNaive drives one Index through a sequence of calls on
// changing corpora (new versions, removals, duplicates, nils, warm-ups,
// indexed and directly scored documents) and checks every answer against
// the naive reference.
func TestPropIndexEqualsNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ix := NewIndex()
		ix.compactAfter = rapid.IntRange(0, 8).Draw(t, "compactAfter")
		// coldAfter decides which new documents are indexed and which are
		// scored directly; both paths must agree with the reference.
		ix.coldAfter = rapid.IntRange(0, 8).Draw(t, "coldAfter")
		// Directly scored documents may be split over goroutines; the
		// split must not change a score or an order.
		ix.parallelAfter = rapid.IntRange(0, 8).Draw(t, "parallelAfter")
		ix.scorers = rapid.IntRange(1, 3).Draw(t, "scorers")
		ix.block = rapid.IntRange(1, 4).Draw(t, "block")
		pool := rapid.SliceOfN(rapid.OneOf(docGen(), longDocGen()), 1, 12).Draw(t, "pool")
		steps := rapid.IntRange(1, 6).Draw(t, "steps")
		for range steps {
			if rapid.Bool().Draw(t, "newVersion") {
				i := rapid.IntRange(0, len(pool)-1).Draw(t, "replaced")
				pool[i] = rapid.OneOf(docGen(), longDocGen()).Draw(t, "version")
			}
			var docs []*memory.Document
			for range rapid.IntRange(0, 2*len(pool)).Draw(t, "size") {
				if rapid.IntRange(0, 20).Draw(t, "nil") == 0 {
					docs = append(docs, nil)
					continue
				}
				docs = append(docs, rapid.SampledFrom(pool).Draw(t, "doc"))
			}
			if rapid.Bool().Draw(t, "warm") {
				ix.Warm(rapid.SliceOf(rapid.SampledFrom(pool)).Draw(t, "warmed"))
			}
			q := queryGen().Draw(t, "q")
			wantKept, wantRanked := RankNaive(q, docs)
			gotKept, gotRanked := ix.Rank(q, docs)
			if diff := cmp.Diff(wantKept, gotKept); diff != "" {
				t.Fatalf("kept differs (-naive +index):\n%s", diff)
			}
			if diff := cmp.Diff(wantRanked, gotRanked); diff != "" {
				t.Fatalf("ranked differs for %q (-naive +index):\n%s", q.Tokens(), diff)
			}
			for i, m := range gotRanked {
				if m.Doc != wantRanked[i].Doc {
					t.Fatalf("ranked[%d] is another document pointer", i)
				}
			}
		}
	})
}

// TestPropNFKCInvariance: a query and documents score the same in any
// Unicode normalisation form (bodies stay inside the window).
func TestPropNFKCInvariance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := textGen(6).Draw(t, "query")
		d := docGen().Draw(t, "doc")
		nd := *d
		nd.Title = norm.NFKC.String(d.Title)
		nd.Description = norm.NFKC.String(d.Description)
		nd.Body = norm.NFKC.String(d.Body)
		for _, form := range []norm.Form{norm.NFC, norm.NFD, norm.NFKC, norm.NFKD} {
			got := fieldScore(NewQuery(form.String(text), nil), &nd)
			want := fieldScore(NewQuery(text, nil), d)
			if got != want {
				t.Fatalf("%v: score %v, want %v", form, got, want)
			}
		}
		if a, b := Normalize(text), Normalize(Normalize(text)); a != b {
			t.Fatalf("Normalize not idempotent: %q vs %q", a, b)
		}
	})
}

// TestPropRankedShareAToken: every ranked document contains, in one of its
// scored fields, a token that contains a query token (or its -ing form for
// a silent e), or the silent-e key of a query word typed with -ing or -ed
// — checked with plain substring search, independently of Matches.
func TestPropRankedShareAToken(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		docs := rapid.SliceOfN(docGen(), 0, 10).Draw(t, "docs")
		q := queryGen().Draw(t, "q")
		_, ranked := NewIndex().Rank(q, docs)
		for _, m := range ranked {
			if m.Score <= 0 {
				t.Fatalf("ranked a score of %d", m.Score)
			}
			fieldToks := append(append(Tokens(m.Doc.Title), Tokens(m.Doc.Description)...), Tokens(m.Doc.Body)...)
			for _, ft := range fieldToks {
				fieldToks = append(fieldToks, fold(ft))
				if g := germanFold(ft); g != "" {
					fieldToks = append(fieldToks, g) // ü → ue
				}
			}
			shared := false
			for _, qt := range append(append(slices.Clone(q.Tokens()), q.silentE...), q.translit...) {
				if qt == "" {
					continue
				}
				qt = fold(qt)
				for _, ft := range fieldToks {
					// The silent-e rule (use → using) and the -y stem
					// (retry → retries) are the matches that are not
					// containment of the query token.
					if strings.Contains(ft, qt) || strings.HasSuffix(qt, "e") && strings.Contains(ft, strings.TrimSuffix(qt, "e")+"ing") ||
						strings.HasSuffix(qt, "y") && strings.Contains(ft, strings.TrimSuffix(qt, "y")+"ie") {
						shared = true
					}
				}
			}
			if !shared {
				t.Fatalf("%s ranked with score %d but shares no token with %q", m.Doc.ID, m.Score, q.Tokens())
			}
		}
	})
}

// TestPropRankIsPure: the same input gives the same output, whatever the
// index saw before.
func TestPropRankIsPure(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		docs := rapid.SliceOfN(docGen(), 0, 10).Draw(t, "docs")
		q := queryGen().Draw(t, "q")
		warm := NewIndex()
		warm.Rank(queryGen().Draw(t, "other query"), rapid.SliceOfN(docGen(), 0, 5).Draw(t, "other docs"))
		k1, r1 := warm.Rank(q, docs)
		k2, r2 := NewIndex().Rank(q, docs)
		k3, r3 := warm.Rank(q, docs)
		if !cmp.Equal(k1, k2) || !cmp.Equal(k1, k3) || !cmp.Equal(r1, r2) || !cmp.Equal(r1, r3) {
			t.Fatalf("same input, different output")
		}
	})
}

// TestPropQueryBound: past 64 distinct tokens, the first and last 32 stay.
func TestPropQueryBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 200).Draw(t, "distinct")
		var words []string
		for i := range n {
			words = append(words, fmt.Sprintf("tok%03d", i))
		}
		// Repeats anywhere must not count as distinct tokens.
		text := strings.Join(words, " ")
		if n > 0 {
			text += " " + words[rapid.IntRange(0, n-1).Draw(t, "repeat")]
		}
		got := NewQuery(text, nil).Tokens()
		want := words
		if n > MaxQueryTokens {
			want = append(append([]string{}, words[:MaxQueryTokens/2]...), words[n-MaxQueryTokens/2:]...)
		}
		if !cmp.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("tokens %q, want %q", got, want)
		}
	})
}

// TestPropKeysInverseOfMatches: a field token's keys are exactly the query
// tokens that match it — the property that makes the index exact — on
// words built to hit every inflection rule, ASCII and not.
func TestPropKeysInverseOfMatches(t *testing.T) {
	letters := []string{"a", "b", "d", "e", "g", "i", "l", "n", "s", "t", "y", "é", "а", "с", "ال", "ة"}
	endings := []string{"", "s", "es", "ed", "d", "ing", "ings", "ged", "ging", "er", "ership", "ов", "ами", "ies", "ied", "y", "sses", "us", "is"}
	word := rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		for range rapid.IntRange(1, 6).Draw(t, "letters") {
			b.WriteString(rapid.SampledFrom(letters).Draw(t, "letter"))
		}
		return b.String() + rapid.SampledFrom(endings).Draw(t, "ending")
	})
	rapid.Check(t, func(t *rapid.T) {
		f := word.Draw(t, "f")
		toks := Tokens(f)
		if len(toks) != 1 {
			t.Skip("not a single token")
		}
		f = toks[0]
		// Candidates: every prefix of f and of f without an article, with
		// and without a restored silent e, with -ing and -ed (whose
		// silent-e key may be a key of f), plus an unrelated word.
		var cands []string
		for _, base := range []string{f, strings.TrimPrefix(f, "ال")} {
			for i := range base {
				cands = append(cands, base[:i], base[:i]+"e", base[:i]+"ing", base[:i]+"ed")
			}
		}
		cands = append(cands, f, word.Draw(t, "other"))
		readings, keys := appendInflectionKeys(nil, f), appendKeys(nil, f)
		for _, q := range cands {
			if qt := Tokens(q); len(qt) != 1 || qt[0] != q {
				continue // not a query token
			}
			if got, want := slices.Contains(readings, q), inflects(q, f); got != want {
				t.Fatalf("readings(%q) contain %q = %v, inflects = %v (readings %q)", f, q, got, want, readings)
			}
			stem := lightStem(q)
			e := silentEKey(q, stem)
			if got, want := slices.Contains(keys, stem) || e != "" && slices.Contains(keys, e), Matches(q, f); got != want {
				t.Fatalf("keys(%q) contain %q or %q = %v, Matches(%q) = %v (keys %q)", f, stem, e, got, q, want, keys)
			}
			// The stem matches what the word matches, but for the word's
			// silent-e key, which the stem no longer shows.
			if lightStem(stem) != stem || Matches(stem, f) && !Matches(q, f) ||
				e == "" && Matches(stem, f) != Matches(q, f) {
				t.Fatalf("the stem %q of %q does not match as %q does", stem, q, q)
			}
			// The prefilter of direct scoring must never hide a match.
			if query := NewQuery(q, nil); Matches(q, f) && !query.Empty() && !query.mayMatch(f) {
				t.Fatalf("mayMatch(%q) is false for the query %q that matches it", f, q)
			}
		}
	})
}
