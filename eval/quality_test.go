package eval

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/score"
)

// fixtureRun runs the quality harness on the fixture once per test binary
// invocation of a test.
func fixtureRun(t *testing.T) (*Corpus, []Outcome, map[string]map[string]QualityRow) {
	t.Helper()
	c := loadFixture(t)
	out, err := RunQuality(context.Background(), c)
	if err != nil {
		t.Fatalf("RunQuality: %v", err)
	}
	rows := map[string]map[string]QualityRow{}
	for _, r := range QualityRows(out, len(c.Documents)) {
		if rows[r.Scorer] == nil {
			rows[r.Scorer] = map[string]QualityRow{}
		}
		rows[r.Scorer][r.Slice] = r
	}
	return c, out, rows
}

// misses describes the cases a scorer failed in the given slices, so a
// failing gate says which queries to look at.
func misses(out []Outcome, scorer string, keep func(*Case) bool) string {
	var b strings.Builder
	for i := range out {
		o := &out[i]
		if o.Scorer != scorer || !keep(o.Case) || o.Hit() {
			continue
		}
		fmt.Fprintf(&b, "\n  %s [%s] %q want %v top %q, got %v", o.Case.ID, o.Case.Slice, o.Case.Query,
			o.Case.Relevant, o.Case.Top, o.Ranked[:min(5, len(o.Ranked))])
	}
	return b.String()
}

func val(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

// TestFixtureLexicalTargets gates the shipped scorer on the lexical slices
// (spec §8): Recall@5 ≥ 95 % and top-1 ≥ 90 % in every lexical slice.
func TestFixtureLexicalTargets(t *testing.T) {
	_, out, rows := fixtureRun(t)
	for _, s := range append(Slices(), SliceLexical) {
		if s != SliceLexical && !IsLexical(s) {
			continue
		}
		r, ok := rows[ScorerMemrecall][s]
		if !ok || r.Answerable == 0 {
			t.Errorf("slice %s has no answerable case", s)
			continue
		}
		if got := val(r.RecallAt5); got < 0.95 {
			t.Errorf("%s: Recall@5 %.3f < 0.95%s", s, got, misses(out, ScorerMemrecall, func(k *Case) bool { return k.Slice == s || s == SliceLexical && IsLexical(k.Slice) }))
		}
		if got := val(r.Top1); got < 0.90 {
			t.Errorf("%s: top-1 %.3f < 0.90%s", s, got, misses(out, ScorerMemrecall, func(k *Case) bool { return k.Slice == s || s == SliceLexical && IsLexical(k.Slice) }))
		}
	}
}

// TestFixtureNoResultRecall: every no-result case of the fixture, in any
// slice, returns nothing (spec §8: 100 % on the fixture).
func TestFixtureNoResultRecall(t *testing.T) {
	_, out, rows := fixtureRun(t)
	r := rows[ScorerMemrecall][SliceOverall]
	if r.NoResultCases == 0 {
		t.Fatal("the fixture has no no-result case")
	}
	if got := val(r.NoResultRecall); got != 1 {
		t.Errorf("no-result recall %.3f, want 1%s", got, misses(out, ScorerMemrecall, (*Case).NoResult))
	}
}

// TestFixtureNoRegressionAgainstLegacy: on English, the one language the
// legacy scorer reads, the shipped scorer is at least as good on Recall@5,
// top-1 and no-result precision.
func TestFixtureNoRegressionAgainstLegacy(t *testing.T) {
	_, out, rows := fixtureRun(t)
	mine, theirs := rows[ScorerMemrecall][SliceEnglish], rows[ScorerLegacy][SliceEnglish]
	english := func(k *Case) bool { return k.Slice == SliceEnglish }
	for _, m := range []struct {
		name      string
		mine, old *float64
	}{
		{"Recall@5", mine.RecallAt5, theirs.RecallAt5},
		{"top-1", mine.Top1, theirs.Top1},
		{"no-result precision", mine.NoResultPrecision, theirs.NoResultPrecision},
	} {
		if m.old == nil {
			continue // legacy returned nothing to compare with
		}
		if m.mine == nil || *m.mine < *m.old {
			t.Errorf("English %s: memrecall %.3f < legacy %.3f\nmemrecall misses:%s\nlegacy misses:%s", m.name, val(m.mine), *m.old,
				misses(out, ScorerMemrecall, english), misses(out, ScorerLegacy, english))
		}
	}
}

// TestFixtureSemanticSlice asserts the semantic slice separately: the
// lexical stage must find none of its documents (no score without a
// match; a hit would mean a lexical leak the fixture test missed), and the
// row is present in the report rather than folded into the lexical ones.
func TestFixtureSemanticSlice(t *testing.T) {
	_, out, rows := fixtureRun(t)
	r, ok := rows[ScorerMemrecall][SliceSemantic]
	if !ok || r.Answerable == 0 {
		t.Fatal("no semantic row in the report")
	}
	if got := val(r.RecallAt5); got != 0 {
		t.Errorf("semantic Recall@5 %.3f, want 0: the lexical stage found a document that shares no token with the query", got)
	}
	for i := range out {
		if o := &out[i]; o.Case.Slice == SliceSemantic && o.Scorer == ScorerMemrecall {
			for _, id := range o.Ranked {
				for _, rel := range o.Case.Relevant {
					if id == rel {
						t.Errorf("case %s: %s ranked without a shared token", o.Case.ID, id)
					}
				}
			}
		}
	}
}

// TestFixtureRandomFloor: the fixture is large enough that a query-blind
// scorer stays at or under 25 % Recall@5.
func TestFixtureRandomFloor(t *testing.T) {
	c := loadFixture(t)
	if got := RandomRecallAt5(len(c.Documents)); got > 0.25 {
		t.Errorf("random Recall@5 %.3f > 0.25 with %d documents", got, len(c.Documents))
	}
}

// TestNoiseFilterCasesExerciseTheFilter: every noise-filter case with
// recent tools ranks differently without them — the filter removes at
// least one document — so the slice measures the filter, not luck.
func TestNoiseFilterCasesExerciseTheFilter(t *testing.T) {
	c := loadFixture(t)
	tree, err := c.WriteTree(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	docs, ids, err := tree.Scan(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	ix := score.NewIndex()
	rank := func(k *Case, tools []string) map[string]bool {
		_, r := ix.Rank(score.NewQuery(k.Query, tools), docs)
		m := map[string]bool{}
		for _, x := range r {
			m[ids[x.Doc.ID]] = true
		}
		return m
	}
	flips := 0
	for i := range c.Cases {
		k := &c.Cases[i]
		if k.Slice != SliceNoiseFilter || len(k.RecentTools) == 0 {
			continue
		}
		with, without := rank(k, k.RecentTools), rank(k, nil)
		removed := 0
		for id := range without {
			if !with[id] {
				removed++
			}
		}
		if removed == 0 {
			t.Errorf("case %s: the recent tools %v remove nothing", k.ID, k.RecentTools)
		}
		_, unfiltered := ix.Rank(score.NewQuery(k.Query, nil), docs)
		if len(unfiltered) > 0 && ids[unfiltered[0].Doc.ID] != k.Top {
			flips++
		}
	}
	if flips < 2 {
		t.Errorf("only %d noise-filter cases need the filter to get their answer right, want ≥ 2", flips)
	}
}
