package eval

import "strings"

// QualityRow holds the metrics of one scorer on one slice (or overall), or
// on one category of cases (CategoryRows). A ratio without a denominator
// in the slice is nil (JSON null).
type QualityRow struct {
	// Scorer is ScorerMemrecall or ScorerLegacy.
	Scorer string `json:"scorer"`
	// Slice is a slice name or SliceOverall; "" in a category's row.
	Slice string `json:"slice,omitempty"`
	// Category is the category of a CategoryRows row (CaseCategory);
	// "" in a slice's row.
	Category string `json:"category,omitempty"`
	// Cases counts the cases of the slice.
	Cases int `json:"cases"`
	// Answerable counts the cases with relevant documents.
	Answerable int `json:"answerable"`
	// NoResultCases counts the cases without relevant documents.
	NoResultCases int `json:"no_result_cases"`
	// RecallAt5 is the mean Recall@5 over answerable cases.
	RecallAt5 *float64 `json:"recall_at_5"`
	// Top1 is the fraction of answerable cases whose first result is
	// the expected top (or, without a top, any relevant document).
	Top1 *float64 `json:"top1"`
	// NoResultPrecision is, of the cases where the scorer returned
	// nothing, the fraction that are no-result cases.
	NoResultPrecision *float64 `json:"no_result_precision"`
	// NoResultRecall is, of the no-result cases, the fraction where the
	// scorer returned nothing.
	NoResultRecall *float64 `json:"no_result_recall"`
	// MeanMatches is the mean number of documents the scorer ranked.
	MeanMatches float64 `json:"mean_matches"`
	// CandidateReduction is 1 − MeanMatches/documents: the share of the
	// corpus the lexical stage keeps out of the ranked list.
	CandidateReduction float64 `json:"candidate_reduction"`
}

// tally accumulates the counts behind one QualityRow.
type tally struct {
	cases, answerable, noResult int
	recallSum                   float64
	top1                        int
	returnedNothing             int
	correctNothing              int
	matches                     int
}

func (t *tally) add(o *Outcome) {
	t.cases++
	t.matches += len(o.Ranked)
	empty := len(o.Ranked) == 0
	if empty {
		t.returnedNothing++
	}
	if o.Case.NoResult() {
		t.noResult++
		if empty {
			t.correctNothing++
		}
		return
	}
	t.answerable++
	t.recallSum += o.RecallAtK(TopK)
	if o.Top1() {
		t.top1++
	}
}

func (t *tally) row(scorer, slice string, documents int) QualityRow {
	r := QualityRow{
		Scorer: scorer, Slice: slice, Cases: t.cases,
		Answerable: t.answerable, NoResultCases: t.noResult,
		RecallAt5:         ratio(t.recallSum, t.answerable),
		Top1:              ratio(float64(t.top1), t.answerable),
		NoResultPrecision: ratio(float64(t.correctNothing), t.returnedNothing),
		NoResultRecall:    ratio(float64(t.correctNothing), t.noResult),
	}
	if t.cases > 0 {
		r.MeanMatches = float64(t.matches) / float64(t.cases)
	}
	if documents > 0 {
		r.CandidateReduction = 1 - r.MeanMatches/float64(documents)
	}
	return r
}

// ratio returns num/den, or nil when there is no denominator.
func ratio(num float64, den int) *float64 {
	if den == 0 {
		return nil
	}
	v := num / float64(den)
	return &v
}

// RandomRecallAt5 is the Recall@5 a query-blind scorer that returns five
// documents at random reaches on a corpus of n documents: each relevant
// document is among the five with probability 5/n.
func RandomRecallAt5(n int) float64 {
	if n <= 0 {
		return 0
	}
	return min(1, float64(TopK)/float64(n))
}

// QualityRows aggregates outcomes per scorer and slice, in the order of
// Scorers() and Slices() (slices without cases are left out), each
// scorer's lexical and overall rows after its slices.
func QualityRows(outcomes []Outcome, documents int) []QualityRow {
	per := make(map[string]map[string]*tally)
	for _, s := range Scorers() {
		per[s] = make(map[string]*tally)
	}
	for i := range outcomes {
		o := &outcomes[i]
		m := per[o.Scorer]
		if m == nil {
			continue
		}
		keys := []string{o.Case.Slice, SliceOverall}
		if IsLexical(o.Case.Slice) {
			keys = append(keys, SliceLexical)
		}
		for _, key := range keys {
			if m[key] == nil {
				m[key] = &tally{}
			}
			m[key].add(o)
		}
	}
	var rows []QualityRow
	for _, s := range Scorers() {
		for _, sl := range append(Slices(), SliceLexical, SliceOverall) {
			if t := per[s][sl]; t != nil {
				rows = append(rows, t.row(s, sl, documents))
			}
		}
	}
	return rows
}

// CaseCategory is the category a case's id names: the part before its
// first "-" ("common-3" is common, "se-01" is se; an id without "-" is its
// own category). The blind corpora name their categories this way.
func CaseCategory(id string) string {
	cat, _, _ := strings.Cut(id, "-")
	return cat
}

// CategoryRows aggregates outcomes per scorer and case category
// (CaseCategory), in the order of Scorers() and of each category's first
// case in outcomes. They are the per-category figures of a blind reading,
// which the slice rows cannot give: a category's cases may span slices.
func CategoryRows(outcomes []Outcome, documents int) []QualityRow {
	per := make(map[string]map[string]*tally)
	for _, s := range Scorers() {
		per[s] = make(map[string]*tally)
	}
	var order []string
	seen := map[string]bool{}
	for i := range outcomes {
		o := &outcomes[i]
		m := per[o.Scorer]
		if m == nil {
			continue
		}
		cat := CaseCategory(o.Case.ID)
		if !seen[cat] {
			seen[cat] = true
			order = append(order, cat)
		}
		if m[cat] == nil {
			m[cat] = &tally{}
		}
		m[cat].add(o)
	}
	var rows []QualityRow
	for _, s := range Scorers() {
		for _, cat := range order {
			if t := per[s][cat]; t != nil {
				r := t.row(s, "", documents)
				r.Category = cat
				rows = append(rows, r)
			}
		}
	}
	return rows
}
