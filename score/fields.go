package score

import "math"

// field is a bit for each scored part of a document, and the same bits
// shifted by foldShift for a match through a folded key (see fold): a
// token's match in one document is a fieldMask.
type field uint8

const (
	fieldTitle field = 1 << iota
	fieldDescription
	fieldBody
	// fieldFar is the body past the window a prompt shows (see
	// BodyWindow): matched, but weighed less.
	fieldFar
)

// foldShift moves exact field bits to the bits of a folded match.
const foldShift = 4

// exactBits selects the exact-match bits of a mask.
const exactBits field = 1<<foldShift - 1

// folded turns a mask into a folded match of the same fields.
func folded(m field) field { return (m | m<<foldShift) &^ exactBits }

// Field weights per matching query token (spec §3.5): what a token earns, at
// an inverse document frequency of one, from each field it matches.
const (
	TitleWeight       = 4
	DescriptionWeight = 3
	BodyWeight        = 1
)

// Weights in eighths, the unit of fieldPoints: the body past the window
// weighs half the body, and a match through a folded key three quarters
// of the exact one (docs/decisions/0206-evidence.md).
const (
	pointsPerWeight = 8
	farPoints       = pointsPerWeight * BodyWeight / 2
	foldNumerator   = 3
	foldDenominator = 4
)

// fieldPoints is what a token earns from the fields of its mask, in
// eighths of a weight: each field it matches exactly earns its weight, each
// it matches only through a folded key three quarters of it.
var fieldPoints = maskTable([4]int32{TitleWeight * pointsPerWeight, DescriptionWeight * pointsPerWeight,
	BodyWeight * pointsPerWeight, farPoints}, func(a, b int32) int32 { return a + b })

// Saturation of the ranking score (BM25F, docs/decisions/0216-saturated-rank.md):
// a token whose fields weigh W in all (fieldPoints, in weights) earns
// rankScale × W/(W + rankK1) of its weight, rounded. A title match then
// earns 0.77 of a token's weight, a body match 0.45 and a match past the
// window 0.29, instead of 4, 1 and ½: one common word in another note's
// title no longer outweighs a note that matches every word of the query
// in its body. rankK1 is BM25's usual k1.
const (
	rankScale = 64
	rankK1    = 1.2
)

// rankPoints is what a token earns in the ranking score from the fields
// of its mask, in 1/rankScale of its weight (idf × units, see
// weighing.tokenScore): fieldPoints saturated. It grows with
// fieldPoints, so title > description > body > past the window and an
// exact match > its folded form still hold.
var rankPoints = func() (t [256]int32) {
	for m, p := range fieldPoints {
		if p > 0 {
			w := float64(p) / pointsPerWeight
			t[m] = int32(math.Round(rankScale * w / (w + rankK1)))
		}
	}
	return t
}()

// maskTable tabulates a value over every field mask: each field the mask
// matches exactly contributes its value of v, each it matches only
// through a folded key three quarters of it, and join combines the
// contributions (a sum for the score, the best for the evidence level).
func maskTable(v [4]int32, join func(a, b int32) int32) (t [256]int32) {
	for m := range t {
		for b := range 4 {
			switch {
			case m&(1<<b) != 0:
				t[m] = join(t[m], v[b])
			case m&(1<<(b+foldShift)) != 0:
				t[m] = join(t[m], v[b]*foldNumerator/foldDenominator)
			}
		}
	}
	return t
}
