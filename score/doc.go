// Package score is memrecall's deterministic, multilingual lexical scorer:
// normalisation, tokens, the matching rule, the active-tool noise filter and
// an in-memory index that ranks documents without rescanning their bodies.
//
// One Index serves one catalog. After a scan, index in the background; per
// query, prepare the query and rank:
//
//	ix := score.NewIndex()
//	go ix.Warm(docs)                  // optional: later queries find it warm
//	q := score.NewQuery(userText, recentTools)
//	kept, ranked := ix.Rank(q, docs)  // cold or warm, the same answer
//
// kept is what survives the noise filter (it is also the pool the model
// selector may choose from); ranked holds the lexical matches, best first
// by a field-weighted sum of the matched tokens' inverse document
// frequencies, or nothing when the document with the most evidence holds
// too small a share of the query's own, where words the memory has never
// seen count against an answer and the most common English words count
// half (docs/decisions/0206-evidence.md, 0209-evidence-against.md).
// Words also match through a folded key without accents and marks
// (docs/decisions/0207-folding-stems.md).
//
// Algebraic promises, checked by property tests:
//   - Normalize(Normalize(s)) == Normalize(s), and Normalize(norm.NFKC(s)) ==
//     Normalize(s), so scores do not depend on the Unicode form of the input.
//   - Every ranked document shares at least one token with the query under
//     the matching rule (see Matches); there is no score without a match.
//   - Index.Rank returns exactly what RankNaive returns for the same input.
//   - Rank is a pure function of (query, documents): the cache only saves
//     work.
//
// The character tables come from Go's unicode package and
// golang.org/x/text/unicode/norm; UnicodeVersion records which version the
// scorer was built and tested against.
package score

import (
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// UnicodeVersion is the Unicode version of the script tables (Go's unicode
// package) that classify token characters.
const UnicodeVersion = unicode.Version

// NormalizationVersion is the Unicode version of the NFKC tables.
const NormalizationVersion = norm.Version
