package score

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// blindDPath is the second blind corpus, a development corpus since it
// was read (docs/evaluation.md).
const blindDPath = "../eval/testdata/blind-d.json"

// rankForm is a candidate ranking score: what token t with mask m adds
// to a document's score, and what one step of the type boost adds.
type rankForm struct {
	name  string
	token func(q *Query, w *weighing, t int, m field) int64
	boost int64
}

// saturatedForm is the shipped form with another k1: idf × units × the
// saturated field points.
func saturatedForm(k1 float64) rankForm {
	var tab [256]int64
	for m, p := range fieldPoints {
		if p > 0 {
			w := float64(p) / pointsPerWeight
			tab[m] = int64(math.Round(rankScale * w / (w + k1)))
		}
	}
	return rankForm{
		name: fmt.Sprintf("saturated, k1 = %.1f", k1),
		token: func(q *Query, w *weighing, t int, m field) int64 {
			return int64(w.idf[t]) * int64(q.units[t]) * tab[m]
		},
		boost: idfScale * tab[fieldBody],
	}
}

// TestRankFormCurve prints, for each ranking score, lexical Recall@5 and
// top-1 on the five corpora (docs/decisions/0216-saturated-rank.md). The
// answer rule does not read the score, so every form answers the same
// cases; only their order differs. It fails if the shipped form loses
// Recall@5 or top-1 against the field sum it replaced on any corpus, or
// if the row it calls shipped is not the score Rank computes.
//
//	go test ./score -variants -run RankFormCurve -v
func TestRankFormCurve(t *testing.T) {
	needVariants(t)
	names := []string{"fixture", "unseen-a", "heldout-b", "blind-c", "blind-d"}
	corpora := []*fixture{loadFixture(t), loadCorpus(t, unseenPath), loadCorpus(t, heldoutPath),
		loadCorpus(t, blindCPath), loadCorpus(t, blindDPath)}
	fieldSum := rankForm{
		name: "field sum 4 / 3 / 1 / ½ (0206)",
		token: func(q *Query, w *weighing, t int, m field) int64 {
			return int64(w.idf[t]) * int64(fieldPoints[m])
		},
		boost: idfScale * pointsPerWeight * BodyWeight,
	}
	evidenceForm := rankForm{
		name: "evidence (0209's levels and quarters)",
		token: func(q *Query, w *weighing, t int, m field) int64 {
			return w.ev[t] * int64(evidenceLevel[m])
		},
		boost: idfScale * wordUnits * fullQuarters * levelBody,
	}
	forms := []rankForm{fieldSum, evidenceForm, saturatedForm(0.5), saturatedForm(1.0),
		saturatedForm(rankK1), saturatedForm(1.5), saturatedForm(2.0)}
	shipped := 4
	if f := forms[shipped]; f.boost != int64(boostPoints) {
		t.Fatalf("%s: boost %d, shipped %d", f.name, f.boost, boostPoints)
	}
	type figures struct{ r5, top1 float64 }
	got := make([][]figures, len(forms))
	for fi, f := range forms {
		row := "| " + f.name + " |"
		for _, fx := range corpora {
			var r5, top1 float64
			n := 0
			for _, c := range fx.Cases {
				if c.Slice == "semantic-no-lexical" || len(c.Relevant) == 0 {
					continue
				}
				n++
				q := NewQuery(c.Query, c.RecentTools)
				_, ranked, w, best, named := rankNaive(q, fx.docs)
				if len(ranked) == 0 || !named && !q.answers(&w, best) {
					continue
				}
				type scored struct {
					id    string
					score int64
					m     Match
				}
				order := make([]scored, len(ranked))
				for j, m := range ranked {
					var s int64
					for tk, mk := range docMasks(&q, m.Doc) {
						if mk != 0 {
							s += f.token(&q, &w, tk, mk)
							if got := int64(w.tokenScore(tk, mk)); fi == shipped && got != f.token(&q, &w, tk, mk) {
								t.Fatalf("%s: token %q mask %08b scores %d, Rank %d", f.name, q.tokens[tk], mk, f.token(&q, &w, tk, mk), got)
							}
						}
					}
					s += f.boost * int64(q.typeBoostFor(m.Doc.Type))
					order[j] = scored{fx.ids[m.Doc], s, m}
				}
				slices.SortFunc(order, func(a, b scored) int {
					if a.score != b.score {
						if a.score > b.score {
							return -1
						}
						return 1
					}
					return compareMatches(a.m, b.m)
				})
				hit := 0
				for _, r := range c.Relevant {
					for _, o := range order[:min(5, len(order))] {
						if o.id == r {
							hit++
							break
						}
					}
				}
				r5 += float64(hit) / float64(min(5, len(c.Relevant)))
				if c.Top != "" && order[0].id == c.Top || c.Top == "" && slices.Contains(c.Relevant, order[0].id) {
					top1++
				}
			}
			fg := figures{100 * r5 / float64(n), 100 * top1 / float64(n)}
			got[fi] = append(got[fi], fg)
			row += fmt.Sprintf(" %.1f / %.1f |", fg.r5, fg.top1)
		}
		t.Log(row)
	}
	for ci, name := range names {
		s, old := got[shipped][ci], got[0][ci]
		if s.r5 < old.r5 || s.top1 < old.top1 {
			t.Errorf("%s: shipped %.1f / %.1f, field sum %.1f / %.1f", name, s.r5, s.top1, old.r5, old.top1)
		}
	}
}
