package score

import "slices"

// isCommonWord reports whether query token tok (a light stem) is one of the
// most common English words (testdata/common-words.txt): a word that most
// questions and most notes could hold whatever they are about, and that
// therefore weighs less as evidence for or against an answer
// (docs/decisions/0209-evidence-against.md). The table is sorted static
// data: nothing is built at start-up.
func isCommonWord(tok string) bool {
	_, ok := slices.BinarySearch(commonStems[:], tok)
	return ok
}
