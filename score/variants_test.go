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

	"github.com/memrecall/memrecall/memory"
)

// fixturePath is the evaluation's labelled corpus. This test reads it as
// data only (score must not import eval) to keep the evidence behind
// docs/decisions/0200-matching-rule.md reproducible:
//
//	go test ./score -run MatchingVariants -v
const fixturePath = "../eval/testdata/fixture.json"

type fixture struct {
	Documents []struct {
		ID, Scope, Type, Name, Description, Body, Modified string
	}
	Cases []struct {
		ID, Slice, Query, Top string
		Relevant              []string
		RecentTools           []string `json:"recent_tools"`
	}
}

// variant is one candidate matching rule.
type variant struct {
	name      string
	match     func(q, f string) bool
	stopwords bool
}

// rankVariant is RankNaive with the matching rule and the stopword step
// swapped for the variant's; everything else (noise filter, weights, type
// boost, window, order) is the shipped code.
func rankVariant(v variant, text string, tools []string, docs []*memory.Document) []Match {
	q := NewQuery(text, tools)
	if !v.stopwords {
		q.tokens = boundTokens(dedupe(Tokens(text)))
		for _, t := range memory.Types {
			q.boost[t] = typeBoost(t, q.tokens)
		}
	}
	var ranked []Match
	for i, d := range docs {
		if IsNoise(d, q) {
			continue
		}
		fields := [...][]string{Tokens(d.Title), Tokens(d.Description), Tokens(BodyWindow(d.Body))}
		weights := [...]int{TitleWeight, DescriptionWeight, BodyWeight}
		score := 0
		for _, qt := range q.tokens {
			for fi, toks := range fields {
				if slices.ContainsFunc(toks, func(ft string) bool { return v.match(qt, ft) }) {
					score += weights[fi]
				}
			}
		}
		if score > 0 {
			ranked = append(ranked, Match{Doc: d, Score: score + q.typeBoostFor(d.Type), Pos: i})
		}
	}
	sortMatches(ranked)
	return ranked
}

type variantFigures struct {
	recall, top1, enRecall, enTop1, noResult float64
	nonRelevant                              int
}

func TestMatchingVariantsOnFixture(t *testing.T) {
	data, err := os.ReadFile(fixturePath)
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
	// Documents in scan order: project scope first, then by file name.
	var docs []*memory.Document
	ids := map[*memory.Document]string{}
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
		title := fd.Name
		if title == "" {
			title = fd.Type
		}
		d := &memory.Document{Scope: scope, RelPath: fd.ID + ".md", Type: typ, Title: title,
			Description: fd.Description, Body: body, Modified: mod}
		docs = append(docs, d)
		ids[d] = fd.ID
	}
	slices.SortStableFunc(docs, func(a, b *memory.Document) int {
		if a.Scope != b.Scope {
			return int(a.Scope) - int(b.Scope)
		}
		return strings.Compare(a.RelPath, b.RelPath)
	})

	measure := func(v variant) variantFigures {
		var f variantFigures
		var answerable, english, noResult int
		for _, c := range fx.Cases {
			if c.Slice == "semantic-no-lexical" {
				continue
			}
			ranked := rankVariant(v, c.Query, c.RecentTools, docs)
			top := make([]string, 0, 5)
			for _, m := range ranked[:min(5, len(ranked))] {
				top = append(top, ids[m.Doc])
				if !slices.Contains(c.Relevant, ids[m.Doc]) {
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
			recall := float64(hit) / float64(min(len(c.Relevant), 5))
			want := c.Top
			first := len(top) > 0 && (top[0] == want || want == "" && slices.Contains(c.Relevant, top[0]))
			answerable++
			f.recall += recall
			if first {
				f.top1++
			}
			if c.Slice == "english" {
				english++
				f.enRecall += recall
				if first {
					f.enTop1++
				}
			}
		}
		f.recall /= float64(answerable)
		f.top1 /= float64(answerable)
		f.enRecall /= float64(english)
		f.enTop1 /= float64(english)
		f.noResult /= float64(noResult)
		return f
	}

	substring := func(q, f string) bool { return strings.Contains(f, q) }
	exact := func(q, f string) bool { return q == f }
	variants := []variant{
		{"substring (reference)", substring, false},
		{"substring", substring, true},
		{"exact token", exact, false},
		{"exact token", exact, true},
		{"inflection rule", Matches, false},
		{"inflection rule (shipped)", Matches, true},
	}
	figures := make([]variantFigures, len(variants))
	t.Log("| rule | stopwords | lexical R@5 | lexical top-1 | English R@5 | English top-1 | no-result recall | non-relevant in top 5 |")
	for i, v := range variants {
		f := measure(v)
		figures[i] = f
		t.Logf("| %s | %v | %.3f | %.3f | %.3f | %.3f | %.3f | %d |", v.name, v.stopwords,
			f.recall, f.top1, f.enRecall, f.enTop1, f.noResult, f.nonRelevant)
	}
	ref, shipped := figures[0], figures[len(figures)-1]
	if shipped.recall < ref.recall || shipped.enRecall < ref.enRecall {
		t.Errorf("the shipped rule loses recall against substring matching: %+v vs %+v", shipped, ref)
	}
	if shipped.nonRelevant > ref.nonRelevant || shipped.top1 < ref.top1 {
		t.Errorf("the shipped rule is less precise than substring matching: %+v vs %+v", shipped, ref)
	}
}
