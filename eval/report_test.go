package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestReportJSONShape checks the JSON contract the command line promises
// to tools: the field names, ratios as numbers and null for a metric
// without a denominator.
func TestReportJSONShape(t *testing.T) {
	c, err := Parse(encode(t, validCorpus()))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Corpus struct {
			Name      string `json:"name"`
			Documents int    `json:"documents"`
			Cases     int    `json:"cases"`
		} `json:"corpus"`
		Random  *float64            `json:"random_recall_at_5"`
		Quality []map[string]any    `json:"quality"`
		Misses  map[string][]string `json:"misses"`
		Deliver []map[string]any    `json:"delivery"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("the JSON does not decode: %v\n%s", err, buf.String())
	}
	if got.Corpus.Name != "tiny" || got.Corpus.Documents != 2 || got.Corpus.Cases != 2 {
		t.Errorf("corpus = %+v", got.Corpus)
	}
	if got.Random == nil || *got.Random != 1 {
		t.Errorf("random_recall_at_5 = %v, want 1 (two documents)", got.Random)
	}
	find := func(scorer, slice string) map[string]any {
		for _, q := range got.Quality {
			if q["scorer"] == scorer && q["slice"] == slice {
				return q
			}
		}
		t.Fatalf("no quality row %s/%s", scorer, slice)
		return nil
	}
	en := find("memrecall", "english")
	if en["cases"] != 1.0 || en["recall_at_5"] != 1.0 || en["top1"] != 1.0 {
		t.Errorf("english row %v", en)
	}
	for _, k := range []string{"no_result_precision", "no_result_recall"} {
		if v, ok := en[k]; !ok || v != nil {
			t.Errorf("english %s = %v (present %v), want null: the slice has no no-result case", k, v, ok)
		}
	}
	nr := find("memrecall", "no-result")
	if v, ok := nr["recall_at_5"]; !ok || v != nil {
		t.Errorf("no-result recall_at_5 = %v, want null", v)
	}
	find("legacy", "overall")
	if len(got.Deliver) != 20 {
		t.Errorf("%d delivery rows, want 20", len(got.Deliver))
	}
	for _, d := range got.Deliver {
		for _, k := range []string{"design", "turn", "selector_ms", "first_turn", "delivered", "duplicates"} {
			if _, ok := d[k]; !ok {
				t.Errorf("delivery row without %s: %v", k, d)
			}
		}
	}
	if _, ok := got.Misses["memrecall"]; !ok {
		t.Errorf("misses = %v, want a list per scorer", got.Misses)
	}
}

// genCorpus draws a small valid corpus that no author labelled with the
// scorer in mind: random words from a mixed pool, random labels.
func genCorpus(t *rapid.T) *Corpus {
	words := []string{"deploy", "canary", "rollback", "部署", "回滚", "サーバー", "배포", "сервер",
		"διακομιστής", "déploiement", "เซิร์ฟเวอร์", "ｄｅｐｌｏｙ", "ﬁle", "ok", "db", "x"}
	text := func(label string, max int) string {
		n := rapid.IntRange(0, max).Draw(t, label+" words")
		parts := make([]string, n)
		for i := range parts {
			parts[i] = rapid.SampledFrom(words).Draw(t, label)
		}
		return strings.Join(parts, " ")
	}
	c := &Corpus{Name: "generated"}
	nd := rapid.IntRange(1, 8).Draw(t, "documents")
	for i := range nd {
		c.Documents = append(c.Documents, Document{
			ID:          fmt.Sprintf("doc-%d", i),
			Scope:       rapid.SampledFrom([]string{"project", "user"}).Draw(t, "scope"),
			Type:        rapid.SampledFrom([]string{"user", "feedback", "project", "reference"}).Draw(t, "type"),
			Name:        text("name", 3),
			Description: text("description", 5),
			Body:        text("body", 30),
			Modified:    fmt.Sprintf("2026-0%d-1%dT10:00:00Z", rapid.IntRange(1, 9).Draw(t, "month"), rapid.IntRange(0, 9).Draw(t, "day")),
		})
	}
	nc := rapid.IntRange(1, 6).Draw(t, "cases")
	for i := range nc {
		k := Case{ID: fmt.Sprintf("case-%d", i), Query: text("query", 4) + " q", Relevant: []string{}}
		k.Slice = rapid.SampledFrom(Slices()).Draw(t, "slice")
		if k.Slice != SliceNoResult {
			for j := range c.Documents {
				if rapid.Bool().Draw(t, "relevant") || (k.Slice == SliceSemantic && len(k.Relevant) == 0 && j == len(c.Documents)-1) {
					k.Relevant = append(k.Relevant, c.Documents[j].ID)
				}
			}
		}
		if len(k.Relevant) > 0 && rapid.Bool().Draw(t, "has top") {
			k.Top = rapid.SampledFrom(k.Relevant).Draw(t, "top")
		}
		c.Cases = append(c.Cases, k)
	}
	return c
}

// TestRunOnUnseenCorpora: any valid corpus runs end to end; every ratio is
// in [0, 1] or null; counts add up.
func TestRunOnUnseenCorpora(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		c := genCorpus(t)
		if err := c.Validate(); err != nil {
			t.Fatalf("generated an invalid corpus: %v", err)
		}
		rep, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		for _, q := range rep.Quality {
			for _, p := range []*float64{q.RecallAt5, q.Top1, q.NoResultPrecision, q.NoResultRecall, &q.CandidateReduction} {
				if p != nil && (*p < 0 || *p > 1) {
					t.Fatalf("row %s/%s has a ratio %v outside [0, 1]", q.Scorer, q.Slice, *p)
				}
			}
			if q.Slice == SliceOverall && q.Cases != len(c.Cases) {
				t.Fatalf("overall row counts %d cases, corpus has %d", q.Cases, len(c.Cases))
			}
			if q.Answerable+q.NoResultCases != q.Cases {
				t.Fatalf("row %s/%s: %d + %d != %d", q.Scorer, q.Slice, q.Answerable, q.NoResultCases, q.Cases)
			}
		}
		for _, d := range rep.Delivery {
			if d.Duplicates != 0 || d.CrossQuery != 0 {
				t.Fatalf("delivery row %+v: duplicates or cross-query deliveries", d)
			}
		}
		var buf bytes.Buffer
		if err := rep.WriteMarkdown(&buf); err != nil || !strings.Contains(buf.String(), "| **overall** |") {
			t.Fatalf("Markdown: %v\n%s", err, buf.String())
		}
	})
}
