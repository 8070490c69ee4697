package score

// isStopword reports whether a query token is a function word: a word of
// 3+ letters that questions carry in every language they are asked in and
// that says nothing about which memory is wanted — "what are the rules for
// backfills" is about backfills. Left in, a query matches every document
// whose body says "the" and ranks chatty documents above the relevant one
// (docs/decisions/0200-matching-rule.md has the evaluation figures). The
// list is short on purpose: only words that are never the topic of a
// memory, in English, French, Spanish, Portuguese, German and Russian.
func isStopword(tok string) bool {
	switch tok {
	case "the", "and", "are", "was", "were", "been", "being", "has", "have", "had", "does",
		"did", "doing", "for", "from", "with", "into", "onto", "about", "this", "that",
		"these", "those", "there", "here", "what", "which", "who", "whom", "whose", "when",
		"where", "why", "how", "our", "ours", "your", "yours", "their", "theirs", "they",
		"them", "you", "she", "her", "him", "his", "its", "can", "could", "should",
		"would", "will", "shall", "might", "must", "not", "but", "nor", "yet",
		"than", "then", "also", "just", "very", "any", "some", "all", "each", "such",
		"other", "more", "most", "only", "own", "same", "too", "again", "once", "per",
		"via", "because", "while", "whether", "either", "neither", "both", "whats", "les",
		"des", "une", "est", "pour", "dans", "avec", "que", "qui", "sur", "pas", "par",
		"aux", "nous", "vous", "ils", "elle", "elles", "mais", "comment", "quel", "quelle",
		"los", "las", "una", "uno", "por", "para", "con", "del", "como", "qué", "cómo",
		"cuál", "pero", "sus", "nos", "esto", "esta", "este", "são", "não", "uma", "com",
		"das", "dos", "der", "und", "ist", "mit", "für", "von", "dem", "ein", "eine",
		"einen", "nicht", "wie", "wer", "auf", "aus", "bei", "sich", "auch", "oder", "как",
		"что", "для", "это", "при", "или", "так", "где", "когда", "какой", "какая", "чтобы":
		return true
	}
	return false
}
