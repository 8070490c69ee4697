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
	// FarOnly reports that the document's body matches the query only
	// past its window (memory.BodyWindow): no token of the window a
	// prompt shows matches, and a token of the rest of the body does.
	// Passage then finds the passage to show instead of the window.
	FarOnly bool
}

// farOnly reports whether a document whose tokens matched the fields of
// the union mask m matched its body only past the window.
func farOnly(m field) bool {
	const window, far = fieldBody | fieldBody<<foldShift, fieldFar | fieldFar<<foldShift
	return m&window == 0 && m&far != 0
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
