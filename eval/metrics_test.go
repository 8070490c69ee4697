package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func fp(v float64) *float64 { return &v }

func TestOutcomeMetrics(t *testing.T) {
	tests := []struct {
		name   string
		k      Case
		ranked []string
		recall float64
		top1   bool
		hit    bool
	}{
		{"all found, top right", Case{Relevant: []string{"a", "b"}, Top: "a"}, []string{"a", "x", "b"}, 1, true, true},
		{"top wrong", Case{Relevant: []string{"a", "b"}, Top: "a"}, []string{"b", "a"}, 1, false, false},
		{"no top: any relevant first", Case{Relevant: []string{"a", "b"}}, []string{"b", "a"}, 1, true, true},
		{"half found", Case{Relevant: []string{"a", "b"}}, []string{"a", "x", "y", "z", "w", "b"}, 0.5, true, false},
		{"beyond five does not count", Case{Relevant: []string{"f"}}, []string{"a", "b", "c", "d", "e", "f"}, 0, false, false},
		{"more than five relevant: denominator five", Case{Relevant: []string{"a", "b", "c", "d", "e", "f"}}, []string{"a", "b", "c", "d", "e"}, 1, true, true},
		{"nothing returned", Case{Relevant: []string{"a"}}, nil, 0, false, false},
		{"no-result, nothing returned", Case{Relevant: []string{}}, nil, 0, false, true},
		{"no-result, something returned", Case{Relevant: []string{}}, []string{"a"}, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Outcome{Case: &tt.k, Ranked: tt.ranked}
			got := []any{o.RecallAtK(TopK), o.Top1(), o.Hit()}
			if d := cmp.Diff([]any{tt.recall, tt.top1, tt.hit}, got); d != "" {
				t.Errorf("recall, top1, hit (-want +got):\n%s", d)
			}
		})
	}
}

func TestQualityRows(t *testing.T) {
	en1 := &Case{ID: "1", Slice: SliceEnglish, Relevant: []string{"a"}, Top: "a"}
	en2 := &Case{ID: "2", Slice: SliceEnglish, Relevant: []string{"b"}}
	nr := &Case{ID: "3", Slice: SliceNoResult, Relevant: []string{}}
	sem := &Case{ID: "4", Slice: SliceSemantic, Relevant: []string{"c"}}
	out := []Outcome{
		{Case: en1, Scorer: ScorerMemrecall, Ranked: []string{"a", "b"}},
		{Case: en2, Scorer: ScorerMemrecall, Ranked: nil},
		{Case: nr, Scorer: ScorerMemrecall, Ranked: nil},
		{Case: sem, Scorer: ScorerMemrecall, Ranked: []string{"a", "b", "d", "e"}},
	}
	got := QualityRows(out, 10)
	want := []QualityRow{
		{Scorer: ScorerMemrecall, Slice: SliceEnglish, Cases: 2, Answerable: 2,
			RecallAt5: fp(0.5), Top1: fp(0.5), NoResultPrecision: fp(0), MeanMatches: 1, CandidateReduction: 0.9},
		{Scorer: ScorerMemrecall, Slice: SliceSemantic, Cases: 1, Answerable: 1,
			RecallAt5: fp(0), Top1: fp(0), MeanMatches: 4, CandidateReduction: 0.6},
		{Scorer: ScorerMemrecall, Slice: SliceNoResult, Cases: 1, NoResultCases: 1,
			NoResultPrecision: fp(1), NoResultRecall: fp(1), CandidateReduction: 1},
		{Scorer: ScorerMemrecall, Slice: SliceLexical, Cases: 2, Answerable: 2,
			RecallAt5: fp(0.5), Top1: fp(0.5), NoResultPrecision: fp(0), MeanMatches: 1, CandidateReduction: 0.9},
		{Scorer: ScorerMemrecall, Slice: SliceOverall, Cases: 4, Answerable: 3, NoResultCases: 1,
			RecallAt5: fp(1.0 / 3), Top1: fp(1.0 / 3), NoResultPrecision: fp(0.5), NoResultRecall: fp(1), MeanMatches: 1.5, CandidateReduction: 0.85},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("QualityRows (-want +got):\n%s", d)
	}
}

func TestRandomRecallAt5(t *testing.T) {
	for n, want := range map[int]float64{0: 0, 1: 1, 5: 1, 10: 0.5, 25: 0.2, 56: 5.0 / 56} {
		if got := RandomRecallAt5(n); got != want {
			t.Errorf("RandomRecallAt5(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestCaseCategory(t *testing.T) {
	for id, want := range map[string]string{"common-3": "common", "se-01": "se", "xlang-pt-2": "xlang", "plain": "plain", "": "", "-1": ""} {
		if got := CaseCategory(id); got != want {
			t.Errorf("CaseCategory(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestCategoryRows: one row per scorer and id category, in the order of
// each category's first case, across slices (gap-1 is answerable, gap-2
// is a no-result case).
func TestCategoryRows(t *testing.T) {
	gap1 := &Case{ID: "gap-1", Slice: SliceEnglish, Relevant: []string{"a"}, Top: "a"}
	plain1 := &Case{ID: "plain-1", Slice: SliceEnglish, Relevant: []string{"b"}}
	gap2 := &Case{ID: "gap-2", Slice: SliceNoResult, Relevant: []string{}}
	out := []Outcome{
		{Case: gap1, Scorer: ScorerMemrecall, Ranked: []string{"a", "b"}},
		{Case: plain1, Scorer: ScorerMemrecall, Ranked: nil},
		{Case: gap2, Scorer: ScorerMemrecall, Ranked: []string{"c"}},
		{Case: gap1, Scorer: ScorerLegacy, Ranked: []string{"b"}},
		{Case: plain1, Scorer: ScorerLegacy, Ranked: []string{"b"}},
		{Case: gap2, Scorer: ScorerLegacy, Ranked: nil},
	}
	got := CategoryRows(out, 10)
	want := []QualityRow{
		{Scorer: ScorerMemrecall, Category: "gap", Cases: 2, Answerable: 1, NoResultCases: 1,
			RecallAt5: fp(1), Top1: fp(1), NoResultRecall: fp(0), MeanMatches: 1.5, CandidateReduction: 0.85},
		{Scorer: ScorerMemrecall, Category: "plain", Cases: 1, Answerable: 1,
			RecallAt5: fp(0), Top1: fp(0), NoResultPrecision: fp(0), CandidateReduction: 1},
		{Scorer: ScorerLegacy, Category: "gap", Cases: 2, Answerable: 1, NoResultCases: 1,
			RecallAt5: fp(0), Top1: fp(0), NoResultPrecision: fp(1), NoResultRecall: fp(1), MeanMatches: 0.5, CandidateReduction: 0.95},
		{Scorer: ScorerLegacy, Category: "plain", Cases: 1, Answerable: 1,
			RecallAt5: fp(1), Top1: fp(1), MeanMatches: 1, CandidateReduction: 0.9},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("CategoryRows (-want +got):\n%s", d)
	}
}
