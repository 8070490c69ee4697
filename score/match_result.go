package score

import (
	"slices"

	"github.com/memrecall/memrecall/memory"
)

// Match is one lexically matching document and its score.
type Match struct {
	// Doc is the matching document.
	Doc *memory.Document
	// Score is the field score plus the type boost; always > 0.
	Score int
	// Pos is the document's position in the slice given to Rank.
	Pos int
}

// compareMatches orders best first: higher score, then newer modification
// time, then earlier input position. Type never breaks a tie: ordering by
// type name would put user memory last and a two-document fast result would
// drop it.
func compareMatches(a, b Match) int {
	if a.Score != b.Score {
		if a.Score > b.Score {
			return -1
		}
		return 1
	}
	if c := b.Doc.Modified.Compare(a.Doc.Modified); c != 0 {
		return c
	}
	return a.Pos - b.Pos
}

func sortMatches(m []Match) { slices.SortFunc(m, compareMatches) }
