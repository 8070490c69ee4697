package score

import "github.com/memrecall/memrecall/memory"

// RankNaive is the reference scorer: it applies the noise filter and then,
// for every document, tokenises each field and searches every query token
// in it with Matches; when the kept documents know no more than a third of
// the query (its words, and the characters of its CJK and Thai-like runs:
// see gateUnits and answers) it ranks nothing. It returns what Index.Rank
// returns and exists so that tests (and the evaluation) can check the index
// against a definition that is obviously right. Nil documents are skipped.
func RankNaive(q Query, docs []*memory.Document) (kept []*memory.Document, ranked []Match) {
	for i, d := range docs {
		if d == nil || IsNoise(d, q) {
			continue
		}
		kept = append(kept, d)
		if s := ScoreNaive(q, d); s > 0 {
			ranked = append(ranked, Match{Doc: d, Score: s, Pos: i})
		}
	}
	if len(ranked) > 0 && !q.answers(knownTokens(&q, ranked)) {
		return kept, nil // the memory knows too little of the query
	}
	sortMatches(ranked)
	return kept, ranked
}

// ScoreNaive is the score of one document by plain search: per query token,
// the weight of every field with a matching token, then the type boost if
// anything matched.
func ScoreNaive(q Query, d *memory.Document) int {
	fields := [...]struct {
		toks   []string
		weight int
	}{
		{Tokens(d.Title), TitleWeight},
		{Tokens(d.Description), DescriptionWeight},
		{Tokens(BodyWindow(d.Body)), BodyWeight},
	}
	score := 0
	for _, qt := range q.tokens {
		for _, f := range fields {
			for _, ft := range f.toks {
				if Matches(qt, ft) {
					score += f.weight
					break
				}
			}
		}
	}
	if score > 0 {
		score += q.typeBoostFor(d.Type)
	}
	return score
}
