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
	// recallFloor and top1Floor are the lexical Recall@5 and top-1 gated:
	// spec §8's targets (95 %, 90 %) where the scorer meets them, else the
	// reading the scorer had when the gate was added.
	recallFloor, top1Floor float64
	// noResultFloor is the overall no-result recall gated: spec §8's 95 %
	// on unseen corpora where the scorer meets it, else a regression floor.
	noResultFloor float64
}{
	{"testdata/unseen-a.json", 0.95, 0.90, 0.95},
	{"testdata/heldout-b.json", 0.95, 0.90, 0.95},
	// blind-c, no longer blind (docs/evaluation.md): far from the targets
	// on every count, so these floors only guard against regression. Its
	// reading at the answer share of decision 0213 (29 %): lexical
	// 86.0 % / 84.1 %, no-result recall 85.5 % (83.6 % at 28 %, 60.0 %
	// before decision 0209: recall traded for silence).
	{"testdata/blind-c.json", 0.85, 0.84, 0.85},
	// blind-d, no longer blind: Recall@5 and top-1 meet spec §8; its
	// no-result recall is far below (decision 0213: no lexical rule in the
	// curve reaches 90 % there), so that floor only guards against
	// regression. Reading at decision 0213: 94.3 % / 90.7 % / 58.9 %.
	{"testdata/blind-d.json", 0.94, 0.90, 0.58},
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
			if got := val(lexical.RecallAt5); got < oc.recallFloor {
				t.Errorf("lexical Recall@5 %.3f < %.2f%s", got, oc.recallFloor, misses(out, ScorerMemrecall, keep))
			}
			if got := val(lexical.Top1); got < oc.top1Floor {
				t.Errorf("lexical top-1 %.3f < %.2f%s", got, oc.top1Floor, misses(out, ScorerMemrecall, keep))
			}
			if got := val(overall.NoResultRecall); got < oc.noResultFloor {
				t.Errorf("no-result recall %.3f < %.2f%s", got, oc.noResultFloor,
					misses(out, ScorerMemrecall, func(k *Case) bool { return len(k.Relevant) == 0 }))
			}
		})
	}
}
