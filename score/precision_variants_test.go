package score

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// unseenPath is a corpus written without reading the scorer
// (eval/testdata/unseen-a.json); the variants below are measured on it and
// on the fixture, so that a rule is chosen on more than the corpus it was
// tuned on:
//
//	go test ./score -variants -run PrecisionVariants -v
const unseenPath = "../eval/testdata/unseen-a.json"

// bigramScripts returns the scripts of a CJK bigram's two characters.
func bigramScripts(tok string) (cjkScript, cjkScript, bool) {
	a, size := utf8.DecodeRuneInString(tok)
	if classify(a) != classCJK || size == len(tok) {
		return 0, 0, false
	}
	b, _ := utf8.DecodeRuneInString(tok[size:])
	return scriptOf(a), scriptOf(b), true
}

var particles = "のはがをにでともへ"

// cjkQueryFilter drops query bigrams by mode; a query left with no token
// keeps all of them.
func cjkQueryFilter(mode string) func(string) []string {
	drop := func(tok string) bool {
		a, b, ok := bigramScripts(tok)
		if !ok {
			return false
		}
		kana := func(s cjkScript) bool { return s == scriptHiragana || s == scriptKatakana }
		switch mode {
		case "kana-boundary":
			return a != b && (kana(a) || kana(b))
		case "hiragana-boundary":
			return a != b && (a == scriptHiragana || b == scriptHiragana)
		case "any-boundary":
			return a != b
		case "particle":
			_, size := utf8.DecodeRuneInString(tok)
			return a != scriptHiragana && strings.Contains(particles, tok[size:])
		}
		return false
	}
	return func(text string) []string {
		all := queryTokens(text)
		var out []string
		for _, t := range all {
			if !drop(t) {
				out = append(out, t)
			}
		}
		if len(out) == 0 {
			return all
		}
		return out
	}
}

// allBigramQueryTokens is queryTokens before the one-script rule: every
// bigram of a CJK run.
func allBigramQueryTokens(text string) []string {
	var out []string
	for _, t := range queryTokens(text) {
		if _, _, ok := bigramScripts(t); !ok {
			out = append(out, t)
		}
	}
	for _, t := range Tokens(text) {
		if _, _, ok := bigramScripts(t); ok {
			out = append(out, t)
		}
	}
	return out
}

func TestPrecisionVariants(t *testing.T) {
	needVariants(t)
	corpora := []*fixture{loadFixture(t), loadCorpus(t, unseenPath)}
	names := []string{"fixture", "unseen-a"}
	twoOfThree := func(m, n int) bool { return n < 3 || m >= 2 }
	third := func(m, n int) bool { return 3*m > n }
	half := func(m, n int) bool { return 2*m >= n }
	before := variant{name: "before: all query bigrams, one-sided inflection", match: inflects, stopwords: true,
		tokens: Tokens, qtokens: allBigramQueryTokens}
	with := func(name string, edit func(*variant)) variant {
		v := before
		v.name = name
		edit(&v)
		return v
	}
	variants := []variant{
		before,
		with("query bigrams of one script", func(v *variant) { v.qtokens = queryTokens }),
		with("drop particle query bigrams", func(v *variant) { v.qtokens = cjkQueryFilter("particle") }),
		with("two-sided stems", func(v *variant) { v.match = Matches }),
		with("document matches 2 of >=3 tokens", func(v *variant) { v.covers = twoOfThree }),
		with("document matches > 1/3 of tokens", func(v *variant) { v.covers = third }),
		with("document matches >= 1/2 of tokens", func(v *variant) { v.covers = half }),
		with("corpus knows > 1/3 of tokens", func(v *variant) { v.gate = third }),
		with("corpus knows >= 1/2 of tokens", func(v *variant) { v.gate = half }),
		with("best document matches > 1/3 of tokens", func(v *variant) { v.bestGate = third }),
		with("best document matches >= 1/2 of tokens", func(v *variant) { v.bestGate = half }),
		with("one-script + two-sided + best > 1/3", func(v *variant) {
			v.qtokens, v.match, v.bestGate = queryTokens, Matches, third
		}),
		with("one-script + two-sided + best >= 1/2", func(v *variant) {
			v.qtokens, v.match, v.bestGate = queryTokens, Matches, half
		}),
		with("one-script + two-sided", func(v *variant) { v.qtokens, v.match = queryTokens, Matches }),
		with("one-script + two-sided + doc 2 of >=3", func(v *variant) {
			v.qtokens, v.match, v.covers = queryTokens, Matches, twoOfThree
		}),
		with("one-script + two-sided + corpus > 1/3", func(v *variant) {
			v.qtokens, v.match, v.gate = queryTokens, Matches, third
		}),
		with("one-script + two-sided + corpus >= 1/2", func(v *variant) {
			v.qtokens, v.match, v.gate = queryTokens, Matches, half
		}),
		{name: "shipped: one-script + two-sided + known-share gate (RankNaive)", shipped: true},
	}
	results := make([][]figures, len(variants))
	t.Log("| variant | corpus | lexical R@5 | lexical top-1 | English R@5 | CJK+mixed R@5 | no-result recall | non-relevant in top 5 | cases missed |")
	for vi, v := range variants {
		for ci, fx := range corpora {
			f := fx.measure(v, all)
			en := fx.measure(v, english)
			cjk := fx.measure(v, func(c fixtureCase) bool {
				return slices.Contains([]string{"chinese", "japanese", "korean", "mixed"}, c.Slice)
			})
			t.Logf("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %d | %s |", v.name, names[ci],
				f.recall, f.top1, en.recall, cjk.recall, f.noResult, f.nonRelevant, strings.Join(fx.misses(v), " "))
			results[vi] = append(results[vi], f)
		}
	}
	// The shipped scorer must not lose recall or top-1 on either corpus
	// against the rule before this change, nor answer more no-result
	// cases.
	for ci := range corpora {
		was, now := results[0][ci], results[len(results)-1][ci]
		if now.recall < was.recall || now.top1 < was.top1 || now.noResult < was.noResult {
			t.Errorf("%s: shipped %+v is worse than before %+v", names[ci], now, was)
		}
	}
}

// misses lists the lexical cases a variant gets wrong: a relevant document
// outside the top 5, a wrong first result, or a result for a no-result case.
func (fx *fixture) misses(v variant) []string {
	var out []string
	for _, c := range fx.Cases {
		if c.Slice == "semantic-no-lexical" {
			continue
		}
		ranked := rankVariant(v, c.Query, c.RecentTools, fx.docs)
		var top []string
		for _, m := range ranked[:min(5, len(ranked))] {
			top = append(top, fx.ids[m.Doc])
		}
		switch {
		case len(c.Relevant) == 0 && len(ranked) > 0:
			out = append(out, c.ID)
		case len(c.Relevant) > 0 && len(top) == 0:
			out = append(out, c.ID)
		case len(c.Relevant) > 0:
			bad := c.Top != "" && top[0] != c.Top || c.Top == "" && !slices.Contains(c.Relevant, top[0])
			for _, r := range c.Relevant[:min(5, len(c.Relevant))] {
				bad = bad || !slices.Contains(top, r)
			}
			if bad {
				out = append(out, c.ID)
			}
		}
	}
	return out
}

// TestQueryCoverageOnCorpora prints, per lexical case, how many of the
// query's tokens occur anywhere in the corpus, and the weight of the
// known-share gate's units they make known (the noise filter aside).
func TestQueryCoverageOnCorpora(t *testing.T) {
	needVariants(t)
	for _, path := range []string{fixturePath, unseenPath} {
		fx := loadCorpus(t, path)
		for _, c := range fx.Cases {
			if c.Slice == "semantic-no-lexical" {
				continue
			}
			q := NewQuery(c.Query, nil)
			found := 0
			var known uint64
			var missing []string
			for i, qt := range q.tokens {
				hit := false
				for _, d := range fx.docs {
					for _, fld := range []string{d.Title, d.Description, BodyWindow(d.Body)} {
						if slices.ContainsFunc(Tokens(fld), func(ft string) bool { return Matches(qt, ft) }) {
							hit = true
						}
					}
				}
				if hit {
					found++
					known |= 1 << i
				} else {
					missing = append(missing, qt)
				}
			}
			w, total := q.knownWeight(known)
			t.Logf("COV %s %s rel=%d tokens %d/%d weight %d/%d missing=%v", path[len(path)-12:], c.ID, len(c.Relevant),
				found, len(q.tokens), w, total, missing)
		}
	}
}
