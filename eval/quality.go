package eval

import (
	"context"
	"fmt"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/score"
	"github.com/memrecall/memrecall/score/legacy"
)

// The scorers a quality report compares.
const (
	// ScorerMemrecall is the shipped scorer: score.Index with the noise
	// filter, exactly as the engine ranks.
	ScorerMemrecall = "memrecall"
	// ScorerLegacy is the frozen pre-design scorer (score/legacy), which
	// has no noise filter and reads only ASCII.
	ScorerLegacy = "legacy"
)

// Scorers returns the scorers in report order.
func Scorers() []string { return []string{ScorerMemrecall, ScorerLegacy} }

// TopK is the cut-off of Recall@K: the five documents a selector may pick
// and a prompt may hold.
const TopK = 5

// Outcome is what one scorer returned for one case.
type Outcome struct {
	// Case is the labeled case.
	Case *Case
	// Scorer is ScorerMemrecall or ScorerLegacy.
	Scorer string
	// Ranked holds the corpus ids of every lexical match, best first.
	Ranked []string
}

// RecallAtK is |relevant ∩ first K| / min(|relevant|, K); 0 for a
// no-result case.
func (o *Outcome) RecallAtK(k int) float64 {
	rel := o.Case.Relevant
	if len(rel) == 0 {
		return 0
	}
	top := o.Ranked[:min(k, len(o.Ranked))]
	hit := 0
	for _, id := range rel {
		for _, got := range top {
			if got == id {
				hit++
				break
			}
		}
	}
	return float64(hit) / float64(min(len(rel), k))
}

// Top1 reports whether the first result is the expected one: the case's
// top when it names one, otherwise any relevant document.
func (o *Outcome) Top1() bool {
	if len(o.Ranked) == 0 || len(o.Case.Relevant) == 0 {
		return false
	}
	if o.Case.Top != "" {
		return o.Ranked[0] == o.Case.Top
	}
	for _, id := range o.Case.Relevant {
		if o.Ranked[0] == id {
			return true
		}
	}
	return false
}

// Hit reports whether the case counts as passed for the scorer: a
// no-result case returned nothing; an answerable case has full Recall@5
// and a correct first result.
func (o *Outcome) Hit() bool {
	if o.Case.NoResult() {
		return len(o.Ranked) == 0
	}
	return o.RecallAtK(TopK) == 1 && o.Top1()
}

// RunQuality writes c as a memory tree under a temporary directory, scans
// it with the real scanner, and runs every case through both scorers. The
// outcomes are in case order, memrecall then legacy for each case.
func RunQuality(ctx context.Context, c *Corpus) ([]Outcome, error) {
	sc, err := writeAndScan(ctx, c)
	if err != nil {
		return nil, err
	}
	defer sc.close()
	return rankCases(ctx, c, sc.docs, sc.ids)
}

// rankCases ranks every case over already scanned documents.
func rankCases(ctx context.Context, c *Corpus, docs []*memory.Document, ids map[memory.ID]string) ([]Outcome, error) {
	ix := score.NewIndex()
	out := make([]Outcome, 0, 2*len(c.Cases))
	for i := range c.Cases {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		k := &c.Cases[i]
		_, ranked := ix.Rank(score.NewQuery(k.Query, k.RecentTools), docs)
		mine := make([]string, len(ranked))
		for j, m := range ranked {
			mine[j] = ids[m.Doc.ID]
		}
		old := legacy.Rank(k.Query, docs)
		theirs := make([]string, len(old))
		for j, m := range old {
			theirs[j] = ids[m.Doc.ID]
		}
		out = append(out,
			Outcome{Case: k, Scorer: ScorerMemrecall, Ranked: mine},
			Outcome{Case: k, Scorer: ScorerLegacy, Ranked: theirs})
	}
	return out, nil
}
