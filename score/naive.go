package score

import "github.com/memrecall/memrecall/memory"

// RankNaive is the reference scorer: it applies the noise filter and then,
// for every document, tokenises each field and searches every query token
// in it by plain comparison of keys (matchMask); it weighs the tokens by
// their document frequency, scores, and ranks nothing when the document
// with the most evidence holds too small a share of the query's
// (docs/decisions/0206-evidence.md). It returns what Index.Rank returns and
// exists so that tests (and the evaluation) can check the index against a
// definition that is obviously right. Nil documents are skipped.
func RankNaive(q Query, docs []*memory.Document) (kept []*memory.Document, ranked []Match) {
	kept, ranked, w, best, named := rankNaive(q, docs)
	if len(ranked) > 0 && !named && !q.answers(&w, best) {
		return kept, nil // the best document holds too little of the query
	}
	return kept, ranked
}

// rankNaive is RankNaive without the answer rule: every match, best first,
// with the token weights, the best document's evidence and whether a
// ranked document matches a name token (see Query.nameToken).
func rankNaive(q Query, docs []*memory.Document) (kept []*memory.Document, ranked []Match, w weighing, best int64, named bool) {
	n := 0
	df := make([]int, len(q.tokens))
	masks := make([][]field, len(docs))
	for i, d := range docs {
		if d == nil {
			continue
		}
		n++
		masks[i] = docMasks(&q, d)
		for t, m := range masks[i] {
			if m != 0 {
				df[t]++
			}
		}
	}
	w = q.weigh(n, df, nil, nil)
	for i, d := range docs {
		if d == nil || IsNoise(d, q) {
			continue
		}
		kept = append(kept, d)
		var score int32
		var ev int64
		var fields field
		docNamed := false
		for t, m := range masks[i] {
			score += w.tokenScore(t, m)
			ev += w.tokenEvidence(t, m)
			fields |= m
			docNamed = docNamed || m != 0 && q.nameToken(&w, t)
		}
		if score > 0 {
			named = named || docNamed
			ranked = append(ranked, Match{Doc: d, Score: int(score) + boostPoints*q.typeBoostFor(d.Type), Pos: i,
				FarOnly: farOnly(fields)})
			best = max(best, ev)
		}
	}
	sortMatches(ranked)
	return kept, ranked, w, best, named
}

// docMasks returns, per query token, the fields of d it matches (see
// matchMask), by plain search over the tokens of each field.
func docMasks(q *Query, d *memory.Document) []field {
	window, far := splitBody(d.Body)
	fields := [...]string{d.Title, d.Description, window, far}
	out := make([]field, len(q.tokens))
	var keys, foldedKeys []string
	for fi, text := range fields {
		for _, ft := range Tokens(text) {
			keys, foldedKeys = tokenKeys(keys[:0], foldedKeys[:0], ft)
			for t := range q.tokens {
				out[t] |= keysMatch(q.tokens[t], q.alts[t], q.silentE[t], q.translit[t], keys, foldedKeys) * fieldOf[fi]
			}
		}
	}
	return out
}

// tokenKeys appends to keys the keys of field token ft (appendKeys) and
// to foldedKeys, for a non-ASCII word token, their folded forms.
func tokenKeys(keys, foldedKeys []string, ft string) ([]string, []string) {
	keys = appendKeys(keys, ft)
	if !isASCII(ft) && isWordToken(ft) {
		foldedKeys = appendFoldedKeys(foldedKeys, keys)
	}
	return keys, foldedKeys
}

// matchMask says how query token tok (with folded form alt, silent-e key
// e and German transliteration tr, each or "") matches field token ft: 1
// exactly, 1<<foldShift through folding, 0 not at all. Exactly: tok or e
// is one of ft's keys (appendKeys). Through folding: tok or e is one of
// the folded forms of ft's keys, or alt or tr is one of ft's keys or of
// their folded forms.
func matchMask(tok, alt, e, tr, ft string) field {
	keys, foldedKeys := tokenKeys(nil, nil, ft)
	return keysMatch(tok, alt, e, tr, keys, foldedKeys)
}

// keysMatch is matchMask for a field token whose keys and folded keys
// are given (tokenKeys), so a document's token is keyed once for all the
// query's tokens.
func keysMatch(tok, alt, e, tr string, keys, foldedKeys []string) field {
	has := func(ks []string, k string) bool {
		for _, x := range ks {
			if x == k {
				return true
			}
		}
		return false
	}
	switch {
	case has(keys, tok), e != "" && has(keys, e):
		return 1
	case has(foldedKeys, tok), e != "" && has(foldedKeys, e), alt != "" && (has(keys, alt) || has(foldedKeys, alt)),
		tr != "" && (has(keys, tr) || has(foldedKeys, tr)):
		return 1 << foldShift
	}
	return 0
}

// MatchLevel reports how query text q (one word) matches field token f: 2
// exactly (Matches), 1 only through folding accents and marks (see fold),
// 0 not at all.
func MatchLevel(q, f string) int {
	nq := Normalize(q)
	qt := lightStem(nq)
	alt, tr := "", ""
	if isWordToken(qt) {
		if a := fold(qt); a != qt {
			alt = a
		}
		if g := germanFold(qt); g != alt {
			tr = g
		}
	}
	switch matchMask(qt, alt, silentEKey(nq, qt), tr, Normalize(f)) {
	case 1:
		return 2
	case 1 << foldShift:
		return 1
	}
	return 0
}
