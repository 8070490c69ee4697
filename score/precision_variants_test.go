package score

import (
	"fmt"
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
		{name: "shipped: one-script + two-sided + evidence rule (RankNaive)", shipped: true},
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

// heldoutPath is the third development corpus (docs/evaluation.md).
const heldoutPath = "../eval/testdata/heldout-b.json"

// blindCPath is the corpus written blind for issue 14, no longer blind
// (docs/evaluation.md).
const blindCPath = "../eval/testdata/blind-c.json"

// curveRule is one answer rule of TestEvidenceCurve: the shipped rule's
// constants (r) and two families the shipped rule does not use, applied
// by the test alone (docs/decisions/0213-answer-curve.md):
//   - maxIdfPct > 0 weighs a query token no document matches at that
//     percentage of the largest idf of the call, idf(n, 0), instead of a
//     multiple of the query's average known token (r.unknownPct);
//   - missPct > 100 weighs a known token the best document does not match
//     at that percentage of its evidence in the query's.
type curveRule struct {
	r         answerRule
	maxIdfPct int64
	missPct   int64
}

func (cr curveRule) String() string {
	s := fmt.Sprintf("%d %% | %d %% | %d %% | %d/4", cr.r.sharePct, cr.r.unknownPct, cr.r.unknownGramPct, cr.r.commonQuarters)
	switch {
	case cr.maxIdfPct > 0:
		s += fmt.Sprintf(" | unknown at %d %% of max idf", cr.maxIdfPct)
	case cr.missPct > 100:
		s += fmt.Sprintf(" | known, missed by best at %d %%", cr.missPct)
	default:
		s += " | —"
	}
	return s
}

// curveCorpora are the corpora of TestEvidenceCurve, in its column order.
var curveCorpora = []struct{ name, path string }{
	{"fixture", fixturePath}, {"unseen-a", unseenPath}, {"heldout-b", heldoutPath},
	{"blind-c", blindCPath}, {"blind-d", blindDPath},
}

// TestEvidenceCurve prints the trade-off of the answer rule
// (docs/decisions/0206-evidence.md, 0209-evidence-against.md,
// 0213-answer-curve.md) on the five corpora: per rule, lexical Recall@5,
// top-1 and no-result recall (every case with no relevant document,
// the noise filter's silent ones included). The ranking does not depend
// on the rule, so each case is ranked once; each rule then weighs the
// query's tokens and the ranked documents' evidence again and decides
// whether the case is answered. It fails if the shipped rule, applied
// this way, disagrees with RankNaive on any case, or if a higher share of
// the shipped family (its unknown, n-gram and common-word weights) keeps
// the fixture's and unseen-a's Recall@5 and top-1 as high as the shipped
// rule. Rows of the other families are printed, not checked: one of them
// (unknown words at 150 % of the largest idf) keeps both whole with more
// no-result recall, and is rejected for the small memories of decision
// 0213.
//
//	go test ./score -variants -run EvidenceCurve -v
func TestEvidenceCurve(t *testing.T) {
	needVariants(t)
	type outcome struct {
		c     fixtureCase
		q     Query
		n     int
		df    []int
		masks [][]field // per ranked document
		named bool
		top   []string
		naive bool // RankNaive answers it
	}
	runs := make([][]outcome, len(curveCorpora))
	for ci, cc := range curveCorpora {
		fx := loadCorpus(t, cc.path)
		for _, c := range fx.Cases {
			if c.Slice == "semantic-no-lexical" {
				continue
			}
			q := NewQuery(c.Query, c.RecentTools)
			_, ranked, w, _, named := rankNaive(q, fx.docs)
			_, answered := RankNaive(q, fx.docs)
			o := outcome{c: c, q: q, n: len(fx.docs), df: w.df, named: named, naive: len(answered) > 0}
			for _, m := range ranked {
				o.masks = append(o.masks, docMasks(&q, m.Doc))
			}
			for _, m := range ranked[:min(5, len(ranked))] {
				o.top = append(o.top, fx.ids[m.Doc])
			}
			runs[ci] = append(runs[ci], o)
		}
	}
	answered := func(o outcome, cr curveRule) bool {
		if len(o.masks) == 0 {
			return false
		}
		q := o.q
		q.rule = cr.r
		w := q.weigh(o.n, o.df, nil, nil)
		var best int64
		var bestMasks []field
		for _, ms := range o.masks {
			var ev int64
			for t, m := range ms {
				ev += w.tokenEvidence(t, m)
			}
			if ev > best || bestMasks == nil {
				best, bestMasks = ev, ms
			}
		}
		query := w.query
		if cr.maxIdfPct > 0 || cr.missPct > 100 {
			var known int64
			query = 0
			top := int64(idf(o.n, 0))
			for i := range q.tokens {
				if w.ev[i] == 0 {
					continue // a type word no document matches
				}
				if o.df[i] == 0 {
					if cr.maxIdfPct > 0 {
						m := top * int64(q.units[i]) * q.quarters(i) * levelFull * cr.maxIdfPct / 100
						if q.units[i] == gramUnits {
							m = m * cr.r.unknownGramPct / 100
						}
						query += m
					}
					continue
				}
				known += w.ev[i] * levelFull
				if cr.missPct > 100 && bestMasks[i] == 0 {
					query += w.ev[i] * levelFull * cr.missPct / 100
				} else {
					query += w.ev[i] * levelFull
				}
			}
			if cr.maxIdfPct == 0 {
				query += w.query - known // the unknown tokens, as weigh counts them
			}
		}
		// The one real decision (Query.answers) with the row's rule; the
		// extension rows change only the query's evidence it is given.
		w.query = query
		return o.named || q.answers(&w, best)
	}
	type cell struct{ recall, top1, noResult float64 }
	measure := func(cr curveRule) ([]cell, []string) {
		var cells []cell
		var missed []string
		for ci, run := range runs {
			var recall, top1, noResult float64
			var answerable, none int
			for _, o := range run {
				var top []string
				if answered(o, cr) {
					top = o.top
				}
				if len(o.c.Relevant) == 0 {
					none++
					if len(top) == 0 {
						noResult++
					} else if ci < 2 {
						missed = append(missed, curveCorpora[ci].name+":"+o.c.ID)
					}
					continue
				}
				answerable++
				hit := 0
				for _, rel := range o.c.Relevant {
					if slices.Contains(top, rel) {
						hit++
					}
				}
				recall += float64(hit) / float64(min(len(o.c.Relevant), 5))
				if len(top) > 0 && (top[0] == o.c.Top || o.c.Top == "" && slices.Contains(o.c.Relevant, top[0])) {
					top1++
				} else if ci < 2 && len(top) == 0 {
					missed = append(missed, curveCorpora[ci].name+":"+o.c.ID)
				}
			}
			cells = append(cells, cell{100 * recall / float64(answerable), 100 * top1 / float64(answerable), 100 * noResult / float64(none)})
		}
		return cells, missed
	}
	shipped := curveRule{r: shippedRule()}
	for ci, run := range runs {
		for _, o := range run {
			if got := answered(o, shipped); got != o.naive {
				t.Errorf("%s %s: the curve answers %v with the shipped rule, RankNaive %v", curveCorpora[ci].name, o.c.ID, got, o.naive)
			}
		}
	}
	var rules []curveRule // 0209's rule is the 28 %, 200 %, 50 % row
	for _, share := range []int64{24, 26, 28, 29, 30, 32, 35, 40} {
		for _, gram := range []int64{50, 100} {
			for _, unknown := range []int64{150, 200, 250} {
				rules = append(rules, curveRule{r: answerRule{share, unknown, gram, 2}})
			}
		}
	}
	for _, share := range []int64{24, 28, 32, 36} {
		for _, top := range []int64{100, 125, 150} {
			rules = append(rules, curveRule{r: answerRule{share, 200, 50, 2}, maxIdfPct: top})
		}
		for _, miss := range []int64{150, 200} {
			rules = append(rules, curveRule{r: answerRule{share, 200, 50, 2}, missPct: miss})
		}
	}
	// The cases whose query holds a type word (decision 0212 counts them).
	typed := "cases with a type word (answerable + no-result):"
	for ci, run := range runs {
		var answerable, none int
		for _, o := range run {
			if o.q.vocabulary == 0 {
				continue
			}
			if len(o.c.Relevant) == 0 {
				none++
			} else {
				answerable++
			}
		}
		typed += fmt.Sprintf(" %s %d + %d;", curveCorpora[ci].name, answerable, none)
	}
	t.Log(typed)
	header := "| share | unknown × avg | unknown n-gram | common word | family |"
	for _, cc := range curveCorpora {
		header += " " + cc.name + " |"
	}
	t.Log(header + " fixture, unseen-a cases lost")
	ref, _ := measure(shipped)
	for _, cr := range rules {
		cells, missed := measure(cr)
		row := "| " + cr.String() + " |"
		for _, c := range cells {
			row += fmt.Sprintf(" %.1f / %.1f / %.1f |", c.recall, c.top1, c.noResult)
		}
		t.Log(row, strings.Join(missed, " "))
		whole := true
		for ci := range 2 {
			whole = whole && cells[ci].recall >= ref[ci].recall && cells[ci].top1 >= ref[ci].top1
		}
		sameFamily := cr.maxIdfPct == 0 && cr.missPct == 0 && cr.r.unknownPct == shipped.r.unknownPct &&
			cr.r.unknownGramPct == shipped.r.unknownGramPct && cr.r.commonQuarters == shipped.r.commonQuarters
		if whole && sameFamily && cr.r.sharePct > shipped.r.sharePct {
			t.Errorf("share %d %% keeps the fixture and unseen-a as whole as the shipped %d %%: the shipped share is not the highest such", cr.r.sharePct, shipped.r.sharePct)
		}
	}
}
