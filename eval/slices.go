package eval

import "slices"

// The slices a case may belong to. A slice groups cases that exercise one
// property of the scorer, so a regression shows where it comes from.
const (
	SliceEnglish     = "english"
	SliceChinese     = "chinese"
	SliceJapanese    = "japanese"
	SliceKorean      = "korean"
	SliceMixed       = "mixed"
	SliceNFKC        = "nfkc"
	SliceBodyOnly    = "body-only"
	SliceOtherScript = "other-script"
	SliceThai        = "thai"
	SliceNoiseFilter = "noise-filter"
	// SliceSemantic holds answerable cases whose query shares no token
	// with any relevant document: the deterministic scorer cannot find
	// them by design, the model selector (through the recent reserve of
	// the candidate set) may.
	SliceSemantic = "semantic-no-lexical"
	// SliceNoResult holds cases about topics the corpus does not cover,
	// and queries too short to carry a token.
	SliceNoResult = "no-result"
)

// SliceOverall names the row that aggregates every case in a report. It is
// not a valid slice for a case.
const SliceOverall = "overall"

// SliceLexical names the row that aggregates the cases of every lexical
// slice (see IsLexical): the row the lexical quality targets apply to. It is
// not a valid slice for a case.
const SliceLexical = "lexical"

// Slices returns the known slices in report order. A corpus may use any
// subset of them; a case with another slice is rejected, because a typo in
// a slice name would otherwise silently move a case out of the gated rows.
func Slices() []string {
	return []string{
		SliceEnglish, SliceChinese, SliceJapanese, SliceKorean, SliceMixed,
		SliceNFKC, SliceBodyOnly, SliceOtherScript, SliceThai,
		SliceNoiseFilter, SliceSemantic, SliceNoResult,
	}
}

// IsLexical reports whether a slice's answerable cases can be found by
// lexical matching, so they count toward the lexical quality gate. The
// semantic slice is reported separately; the no-result slice has nothing
// to find.
func IsLexical(slice string) bool {
	return slice != SliceSemantic && slice != SliceNoResult && slices.Contains(Slices(), slice)
}
