package recall

import (
	"slices"

	"github.com/memrecall/memrecall/memory"
)

// Candidate-set bounds (spec §4.2). The selector sees at most maxCandidates
// documents: up to maxMatches lexical matches and a reserve of up to
// maxReserve recent non-matching documents, so a document that is relevant
// in meaning but shares no word with the query can still reach the model.
const (
	maxCandidates = 200
	maxMatches    = 180
	maxReserve    = 20
	// reserveEvery places one reserve document after every reserveEvery
	// matches. The manifest is packed greedily in candidate order and fills
	// its 25,000 bytes after a few dozen long lines, so reserve documents
	// appended after 180 matches would almost never reach the model; one
	// in ten keeps them in the part that fits. 180/9 = 20, so a full set is
	// exactly 200 with the last reserve document in the last slot.
	reserveEvery = maxMatches / maxReserve
)

// buildCandidates returns the selector's candidates: the first maxMatches
// of matches (ranked, best first) with, after every reserveEvery of them,
// the next of the most recent documents of kept that are not matches; the
// reserve documents left over when matches run out are appended in recency
// order. kept is the noise-filtered pool the matches were ranked from.
//
// Invariants: the result has no repeats, holds at most maxCandidates
// documents, keeps the matches in rank order, and its matches are a prefix
// of matches — so the fast result (the first two matches) and the lexical
// fallback (the first five) are read off the same ranking.
func buildCandidates(matches, kept []*memory.Document) []*memory.Document {
	// The reserve excludes every match, not only the 180 shown: a match
	// ranked 181st is not "lexically silent" and has had its chance.
	reserve := recentNonMatching(kept, matches, maxReserve)
	if len(matches) > maxMatches {
		matches = matches[:maxMatches]
	}
	out := make([]*memory.Document, 0, len(matches)+len(reserve))
	r := 0
	for i, d := range matches {
		out = append(out, d)
		if (i+1)%reserveEvery == 0 && r < len(reserve) {
			out = append(out, reserve[r])
			r++
		}
	}
	return append(out, reserve[r:]...)
}

// recentNonMatching returns up to n documents of kept that are not in
// matches, newest first (ties keep kept's order, which puts the project
// scope first).
func recentNonMatching(kept, matches []*memory.Document, n int) []*memory.Document {
	// Keyed by pointer: matches are drawn from kept, and hashing a pointer
	// instead of a path is most of this function's cost on 10,000 topics.
	isMatch := make(map[*memory.Document]struct{}, len(matches))
	for _, d := range matches {
		isMatch[d] = struct{}{}
	}
	// A bounded insertion keeps the n newest in one pass: this runs on
	// every query over the whole filtered pool (10,000 documents in the
	// benchmark), where a full sort would cost more than the ranking.
	top := make([]*memory.Document, 0, n+1)
	for _, d := range kept {
		if _, ok := isMatch[d]; ok {
			continue
		}
		if len(top) == n && !d.Modified.After(top[n-1].Modified) {
			continue
		}
		// Insert after every document at least as new, so ties keep
		// kept's order.
		at := len(top)
		for at > 0 && d.Modified.After(top[at-1].Modified) {
			at--
		}
		top = slices.Insert(top, at, d)
		if len(top) > n {
			top = top[:n]
		}
	}
	return top
}
