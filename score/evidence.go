package score

import "math"

// Answering on evidence (docs/decisions/0206-evidence.md). A query token
// weighs its inverse document frequency over the documents of the call:
// a word that few documents hold says more about which one is wanted than
// a word most of them hold. The same weights rank (a field-weighted,
// BM25F-like sum over the query's tokens, title > description > body) and
// decide whether to answer: the document with the most distinctive
// evidence must match at least a share of the query's own evidence, or
// nothing is ranked. A question about a home router shares "reset" with a
// note on database resets; "reset" is one of the query's words, and the
// query's other words (router, home, factory) are known to no document,
// so the best note holds a small share of what the query asks. Those
// unknown words count against an answer, and the most common English
// words count half, for or against (docs/decisions/0209-evidence-against.md).
//
// Everything is integer arithmetic on quantities every caller computes
// the same way (idf is rounded once per token), so Index.Rank and
// RankNaive agree exactly.

// idfScale is the fixed-point unit of an inverse document frequency.
const idfScale = 256

// answerRule holds the answer rule's constants. NewQuery sets
// shippedRule; the exploratory tables vary it.
type answerRule struct {
	// sharePct: the best document's evidence must be at least this
	// percentage of the query's.
	sharePct int64
	// unknownPct is the weight, in percent of the query's average known
	// token, of a query token no document matches (see weigh).
	unknownPct int64
	// unknownGramPct further weighs an unknown CJK bigram or Thai-like
	// n-gram, in percent: an n-gram nobody wrote often straddles two
	// words of the question ("几个" of "要几个人") and says less than an
	// unknown word.
	unknownGramPct int64
	// commonQuarters is the weight, in quarters, of a common English word
	// (isCommonWord) as evidence for or against an answer; any other token
	// weighs 4 quarters.
	commonQuarters int64
}

// shippedRule is the rule chosen on the fixture, unseen-a and heldout-b
// and checked on blind-c (docs/decisions/0209-evidence-against.md); its
// share is the highest that keeps the fixture and unseen-a whole, with
// the curve over all five corpora in docs/decisions/0213-answer-curve.md.
func shippedRule() answerRule {
	return answerRule{sharePct: 29, unknownPct: 200, unknownGramPct: 50, commonQuarters: 2}
}

// fullQuarters is the evidence weight of a token that is not a common
// English word.
const fullQuarters = 4

// Evidence levels, in eighths of a token's weight: a match in the title
// or description is full evidence, in the body window three quarters of
// it (a body mentions many things in passing), past the window half; a
// match through a folded key counts three quarters of the exact one.
const (
	levelFull = 8
	levelBody = 6
	levelFar  = 4
)

// evidenceLevel is a mask's evidence level: the best of its fields.
var evidenceLevel = maskTable([4]int32{levelFull, levelFull, levelBody, levelFar},
	func(a, b int32) int32 { return max(a, b) })

// boostPoints is what one step of the type boost adds to a score: one body
// match of a token of one unit at an inverse document frequency of one.
var boostPoints = idfScale * int(rankPoints[fieldBody])

// idf is the inverse document frequency of a token that df of n documents
// match, in units of 1/idfScale: the BM25 form ln(1 + (n−df+½)/(df+½)),
// positive for every df ≤ n.
func idf(n, df int) int32 {
	v := math.Log1p((float64(n-df) + 0.5) / (float64(df) + 0.5))
	return int32(math.Round(v * idfScale))
}

// weighing holds a query's token weights over one call's documents.
type weighing struct {
	idf []int32
	// ev is each token's evidence per level: idf × units × quarters, 0
	// for a type word no document matches (see weigh, tokenEvidence).
	ev []int64
	// df is each token's document frequency (the caller's slice).
	df []int
	// units is each token's units (the query's Query.units).
	units []int32
	// query is the query's own evidence: the sum over its content tokens
	// of idf × unit × levelFull × quarters (see weigh for unknown tokens).
	query int64
}

// weigh computes the token weights from the number of documents n and
// each token's document frequency, and the query's own evidence. A
// content token counts idf × units × quarters (a common English word two
// quarters, any other token four: see isCommonWord). A content token that
// no document matches is evidence against any answer: it counts as the
// query's average known token times unknownPct (its own idf is the
// largest there is and says only that the memory has never seen the word,
// which in a small memory would drown every known word), times its
// quarters, and an unknown n-gram times unknownGramPct besides.
//
// A type word ("preferences", "release", "freeze": see namesType) that
// some document matches is a content token like any other; one that no
// document matches counts neither for nor against an answer, since notes
// of a kind need not name their kind ("my preferences" finds feedback
// notes through the type boost) (docs/decisions/0212-type-words-evidence.md).
func (q *Query) weigh(n int, df []int, idfBuf []int32, evBuf []int64) weighing {
	w := weighing{idf: idfBuf[:0], ev: evBuf[:0], df: df, units: q.units}
	var knownIdf, knownUnits, unknownMass int64
	for i := range q.tokens {
		v := idf(n, df[i])
		w.idf = append(w.idf, v)
		if q.vocabulary&(1<<i) != 0 && df[i] == 0 {
			w.ev = append(w.ev, 0)
			continue
		}
		u, qu := int64(q.units[i]), q.quarters(i)
		w.ev = append(w.ev, int64(v)*u*qu)
		if df[i] == 0 {
			m := u * qu * 100
			if u == gramUnits {
				m = m * q.rule.unknownGramPct / 100
			}
			unknownMass += m
			continue
		}
		knownIdf += int64(v) * u
		knownUnits += u
		w.query += w.ev[i] * levelFull
	}
	if knownUnits > 0 {
		w.query += unknownMass * knownIdf * levelFull * q.rule.unknownPct / (knownUnits * 100 * 100)
	}
	return w
}

// quarters is token i's evidence weight in quarters (see answerRule).
func (q *Query) quarters(i int) int64 {
	if q.common&(1<<i) != 0 {
		return q.rule.commonQuarters
	}
	return fullQuarters
}

// tokenScore is what token i with mask m adds to a document's score: its
// idf × units × the saturated points of its fields (rankPoints), so a
// word weighs two n-grams, as in the evidence.
func (w *weighing) tokenScore(i int, m field) int32 {
	return w.idf[i] * w.units[i] * rankPoints[m]
}

// tokenEvidence is what token i with mask m adds to a document's evidence.
func (w *weighing) tokenEvidence(i int, m field) int64 {
	return w.ev[i] * int64(evidenceLevel[m])
}

// nameMaxDF is how many documents a name (see isName) may match and still
// answer a query on its own.
const nameMaxDF = 2

// nameToken reports whether token i answers the query on its own when a
// kept document matches it: it is a content token that is a name (see
// isName), not the name of a tool the agent used recently, and at most
// nameMaxDF documents match it. A long question in one language around
// one such name ("Kannst du … was bei PAY-1432 schiefgelaufen ist …")
// holds little of its evidence in any note, yet the name settles which
// note it means. A recent tool's name does not: the agent is calling
// that tool, and a question about its parameters ("post_message
// thread_ts") names it whether or not a note beyond the tool's own usage
// note (which the noise filter drops) has anything to add.
func (q *Query) nameToken(w *weighing, i int) bool {
	return (q.names&^q.vocabulary)&(1<<i) != 0 && w.df[i] <= nameMaxDF
}

// answers reports whether a best document evidence of best answers the
// query. A query whose only content tokens are type words no document
// matches has no evidence of its own and is answered by any match.
func (q *Query) answers(w *weighing, best int64) bool {
	return best*100 >= q.rule.sharePct*w.query
}
