package score

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// fixturePath is the evaluation's labelled corpus. These tests read it as
// data only (score must not import eval) to keep the evidence behind
// docs/decisions/0200-matching-rule.md and 0201-tokens.md reproducible:
//
//	go test ./score -variants -run OnFixture -v
const fixturePath = "../eval/testdata/fixture.json"

type fixtureCase struct {
	ID, Slice, Query, Top string
	Relevant              []string
	RecentTools           []string `json:"recent_tools"`
}

type fixture struct {
	Documents []struct {
		ID, Scope, Type, Name, Description, Body, Modified string
	}
	Cases []fixtureCase
	docs  []*memory.Document
	ids   map[*memory.Document]string
}

// loadFixture reads the fixture and builds its documents as the scan
// would: title falling back to the type, trimmed body, project scope
// first, then by file name.
func loadFixture(t *testing.T) *fixture {
	t.Helper()
	return loadCorpus(t, fixturePath)
}

// loadCorpus is loadFixture for any corpus file in the evaluation's format.
func loadCorpus(t *testing.T, path string) *fixture {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no evaluation fixture in this checkout")
	}
	if err != nil {
		t.Fatal(err)
	}
	var fx fixture
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	fx.ids = map[*memory.Document]string{}
	for _, fd := range fx.Documents {
		typ, err := memory.ParseType(fd.Type)
		if err != nil {
			t.Fatal(err)
		}
		scope, err := memory.ParseScope(fd.Scope)
		if err != nil {
			t.Fatal(err)
		}
		mod, err := time.Parse(time.RFC3339, fd.Modified)
		if err != nil {
			t.Fatal(err)
		}
		body := strings.TrimSpace(fd.Body)
		if body == "_No entries yet._" {
			body = ""
		}
		// What the scan keeps of a body (memory.Parse): all of it, up to
		// the read limit, which corpus bodies stay under.
		title := fd.Name
		if title == "" {
			title = fd.Type
		}
		d := &memory.Document{Scope: scope, RelPath: fd.ID + ".md", Type: typ, Title: title,
			Description: fd.Description, Body: body, Modified: mod}
		fx.docs = append(fx.docs, d)
		fx.ids[d] = fd.ID
	}
	slices.SortStableFunc(fx.docs, func(a, b *memory.Document) int {
		if a.Scope != b.Scope {
			return int(a.Scope) - int(b.Scope)
		}
		return strings.Compare(a.RelPath, b.RelPath)
	})
	return &fx
}

// variant is one candidate matching rule and tokenizer.
type variant struct {
	name      string
	match     func(q, f string) bool
	stopwords bool
	tokens    func(string) []string
	// qtokens tokenises the query when it differs from tokens.
	qtokens func(string) []string
	// covers, when set, says whether a document that matches matched of
	// the query's n tokens is kept (the default: any match).
	covers func(matched, n int) bool
	// gate, when set, says whether a query of n tokens of which found
	// match somewhere in the documents may return anything.
	gate func(found, n int) bool
	// bestGate, when set, says whether a query of n tokens may return
	// anything when the document that matches most of them matches best.
	bestGate func(best, n int) bool
	// shipped ranks with RankNaive itself, ignoring the fields above;
	// rule, when set, replaces the shipped answer rule.
	shipped bool
	rule    *answerRule
}

// rankVariant is RankNaive with the matching rule, the tokenizer and the
// stopword step swapped for the variant's; everything else (noise filter,
// weights, type boost, window, order) is the shipped code.
func rankVariant(v variant, text string, tools []string, docs []*memory.Document) []Match {
	q := NewQuery(text, tools)
	if v.shipped {
		if v.rule != nil {
			q.rule = *v.rule
		}
		_, ranked := RankNaive(q, docs)
		return ranked
	}
	qtokens := v.qtokens
	if qtokens == nil {
		qtokens = v.tokens
	}
	toks := qtokens(text)
	if v.stopwords {
		toks = dropStopwords(toks)
	}
	q.tokens = boundTokens(dedupe(toks))
	for _, t := range memory.Types {
		q.boost[t] = typeBoost(t, q.tokens)
	}
	if v.gate != nil && !v.gate(foundTokens(v, q.tokens, docs), len(q.tokens)) {
		return nil
	}
	var ranked []Match
	best := 0
	for i, d := range docs {
		if IsNoise(d, q) {
			continue
		}
		fields := [...][]string{v.tokens(d.Title), v.tokens(d.Description), v.tokens(BodyWindow(d.Body))}
		weights := [...]int{TitleWeight, DescriptionWeight, BodyWeight}
		score, matched := 0, 0
		for _, qt := range q.tokens {
			hit := false
			for fi, toks := range fields {
				if slices.ContainsFunc(toks, func(ft string) bool { return v.match(qt, ft) }) {
					score += weights[fi]
					hit = true
				}
			}
			if hit {
				matched++
			}
		}
		if v.covers != nil && !v.covers(matched, len(q.tokens)) {
			score = 0
		}
		best = max(best, matched)
		if score > 0 {
			ranked = append(ranked, Match{Doc: d, Score: score + q.typeBoostFor(d.Type), Pos: i})
		}
	}
	if v.bestGate != nil && !v.bestGate(best, len(q.tokens)) {
		return nil
	}
	sortMatches(ranked)
	return ranked
}

// foundTokens counts the query tokens that match a token of some field of
// some document.
func foundTokens(v variant, qtoks []string, docs []*memory.Document) int {
	found := 0
	for _, qt := range qtoks {
		for _, d := range docs {
			fields := [...][]string{v.tokens(d.Title), v.tokens(d.Description), v.tokens(BodyWindow(d.Body))}
			if slices.ContainsFunc(fields[:], func(toks []string) bool {
				return slices.ContainsFunc(toks, func(ft string) bool { return v.match(qt, ft) })
			}) {
				found++
				break
			}
		}
	}
	return found
}

// figures are the evaluation metrics of one variant on a set of cases.
type figures struct {
	recall, top1, noResult float64
	nonRelevant            int
}

// measure runs the fixture's lexical cases that keep() selects.
func (fx *fixture) measure(v variant, keep func(fixtureCase) bool) figures {
	var f figures
	var answerable, noResult int
	for _, c := range fx.Cases {
		if c.Slice == "semantic-no-lexical" || !keep(c) {
			continue
		}
		ranked := rankVariant(v, c.Query, c.RecentTools, fx.docs)
		top := make([]string, 0, 5)
		for _, m := range ranked[:min(5, len(ranked))] {
			top = append(top, fx.ids[m.Doc])
			if !slices.Contains(c.Relevant, fx.ids[m.Doc]) {
				f.nonRelevant++
			}
		}
		if len(c.Relevant) == 0 {
			noResult++
			if len(ranked) == 0 {
				f.noResult++
			}
			continue
		}
		hit := 0
		for _, r := range c.Relevant {
			if slices.Contains(top, r) {
				hit++
			}
		}
		answerable++
		f.recall += float64(hit) / float64(min(len(c.Relevant), 5))
		if len(top) > 0 && (top[0] == c.Top || c.Top == "" && slices.Contains(c.Relevant, top[0])) {
			f.top1++
		}
	}
	if answerable > 0 {
		f.recall /= float64(answerable)
		f.top1 /= float64(answerable)
	}
	if noResult > 0 {
		f.noResult /= float64(noResult)
	}
	return f
}

func all(fixtureCase) bool       { return true }
func english(c fixtureCase) bool { return c.Slice == "english" }
func thai(c fixtureCase) bool    { return c.Slice == "thai" }

func TestMatchingVariantsOnFixture(t *testing.T) {
	needVariants(t)
	fx := loadFixture(t)
	substring := func(q, f string) bool { return strings.Contains(f, q) }
	exact := func(q, f string) bool { return q == f }
	variants := []variant{
		{"substring (reference)", substring, false, Tokens, queryTokens, nil, nil, nil, false, nil},
		{"substring", substring, true, Tokens, queryTokens, nil, nil, nil, false, nil},
		{"exact token", exact, false, Tokens, queryTokens, nil, nil, nil, false, nil},
		{"exact token", exact, true, Tokens, queryTokens, nil, nil, nil, false, nil},
		{"inflection rule", Matches, false, Tokens, queryTokens, nil, nil, nil, false, nil},
		{"inflection rule, no identifier tokens", Matches, true, noIdentifiers(Tokens), noIdentifiers(queryTokens), nil, nil, nil, false, nil},
		{"inflection rule (shipped)", Matches, true, Tokens, queryTokens, nil, nil, nil, false, nil},
	}
	var ref, shipped figures
	t.Log("| rule | stopwords | lexical R@5 | lexical top-1 | English R@5 | English top-1 | no-result recall | non-relevant in top 5 |")
	for i, v := range variants {
		f, en := fx.measure(v, all), fx.measure(v, english)
		t.Logf("| %s | %v | %.3f | %.3f | %.3f | %.3f | %.3f | %d |", v.name, v.stopwords,
			f.recall, f.top1, en.recall, en.top1, f.noResult, f.nonRelevant)
		switch i {
		case 0:
			ref = f
		case len(variants) - 1:
			shipped = f
		}
	}
	if shipped.recall < ref.recall {
		t.Errorf("the shipped rule loses recall against substring matching: %+v vs %+v", shipped, ref)
	}
	if shipped.nonRelevant > ref.nonRelevant || shipped.top1 < ref.top1 {
		t.Errorf("the shipped rule is less precise than substring matching: %+v vs %+v", shipped, ref)
	}
}

// noIdentifiers drops the snake_case identifier tokens.
func noIdentifiers(tokens func(string) []string) func(string) []string {
	return func(text string) []string {
		var out []string
		for _, t := range tokens(text) {
			if !strings.Contains(t, "_") {
				out = append(out, t)
			}
		}
		return out
	}
}

// seaTokens is Tokens with the treatment of Thai, Lao, Khmer and Myanmar
// runs replaced: "run" keeps a whole run of 3+ characters as one token (the
// reference design), "codepoint" pairs bare code points, "cluster" pairs
// clusters (in queries too).
func seaTokens(mode string) func(string) []string {
	return func(text string) []string {
		var out []string
		for _, t := range Tokens(text) {
			if r, _ := utf8.DecodeRuneInString(t); classify(r) != classSEA {
				out = append(out, t)
			}
		}
		for _, run := range strings.FieldsFunc(Normalize(text), func(r rune) bool { return classify(r) != classSEA }) {
			switch mode {
			case "run":
				if utf8.RuneCountInString(run) >= minWordRunes {
					out = append(out, run)
				}
			case "codepoint":
				emitBigrams(run, func(b string) { out = append(out, b) })
			case "cluster":
				emitClusterGrams(run, false, func(g string) {
					if first := nextCluster(g, 0); nextCluster(g, first) == len(g) {
						out = append(out, g) // bigrams only
					}
				})
			}
		}
		return out
	}
}

func TestSEAVariantsOnFixture(t *testing.T) {
	fx := loadFixture(t)
	variants := []variant{
		{"whole run (reference)", Matches, true, seaTokens("run"), nil, nil, nil, nil, false, nil},
		{"code-point bigrams", Matches, true, seaTokens("codepoint"), nil, nil, nil, nil, false, nil},
		{"cluster bigrams", Matches, true, seaTokens("cluster"), nil, nil, nil, nil, false, nil},
		{"cluster trigrams in queries (shipped)", Matches, true, Tokens, queryTokens, nil, nil, nil, false, nil},
	}
	var res []figures
	t.Log("| Thai tokens | Thai R@5 | Thai top-1 | Thai no-result recall | non-relevant in top 5 |")
	for _, v := range variants {
		f := fx.measure(v, thai)
		res = append(res, f)
		t.Logf("| %s | %.3f | %.3f | %.3f | %d |", v.name, f.recall, f.top1, f.noResult, f.nonRelevant)
	}
	run, pairs, shipped := res[0], res[2], res[3]
	if shipped.recall <= run.recall {
		t.Errorf("the shipped tokens find no more than whole runs: %+v vs %+v", shipped, run)
	}
	if shipped.recall < pairs.recall || shipped.nonRelevant > pairs.nonRelevant || shipped.noResult < pairs.noResult {
		t.Errorf("the shipped tokens do worse than cluster bigrams: %+v vs %+v", shipped, pairs)
	}
}
