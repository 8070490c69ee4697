package eval

import (
	"context"
	"testing"
)

// otherCorpora are the corpora in testdata written by people who had not
// read the scorer (docs/evaluation.md says how each was used since). They
// are gated on spec §8's targets for unseen corpora where the scorer meets
// them, and on a regression floor where it does not yet.
var otherCorpora = []struct {
	path string
	// noResultFloor is the no-result recall the scorer reached when the
	// corpus was committed. Spec §8 asks ≥ 95 % on unseen corpora; both
	// corpora are one case short of it (docs/evaluation.md, Known gaps), so
	// this floor guards against regression, not the target.
	noResultFloor float64
}{
	{"testdata/unseen-a.json", 0.92},
	{"testdata/heldout-b.json", 0.92},
}

func TestOtherCorporaTargets(t *testing.T) {
	t.Parallel()
	for _, oc := range otherCorpora {
		t.Run(oc.path, func(t *testing.T) {
			c, err := Load(oc.path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			out, err := RunQuality(context.Background(), c)
			if err != nil {
				t.Fatalf("RunQuality: %v", err)
			}
			var lexical, overall *QualityRow
			rows := QualityRows(out, len(c.Documents))
			for i := range rows {
				r := &rows[i]
				if r.Scorer != ScorerMemrecall {
					continue
				}
				switch r.Slice {
				case SliceLexical:
					lexical = r
				case SliceOverall:
					overall = r
				}
			}
			if lexical == nil || overall == nil {
				t.Fatalf("no lexical or overall row for memrecall")
			}
			keep := func(k *Case) bool { return IsLexical(k.Slice) }
			if got := val(lexical.RecallAt5); got < 0.95 {
				t.Errorf("lexical Recall@5 %.3f < 0.95%s", got, misses(out, ScorerMemrecall, keep))
			}
			if got := val(lexical.Top1); got < 0.90 {
				t.Errorf("lexical top-1 %.3f < 0.90%s", got, misses(out, ScorerMemrecall, keep))
			}
			if got := val(overall.NoResultRecall); got < oc.noResultFloor {
				t.Errorf("no-result recall %.3f < %.2f%s", got, oc.noResultFloor,
					misses(out, ScorerMemrecall, func(k *Case) bool { return len(k.Relevant) == 0 }))
			}
		})
	}
}
