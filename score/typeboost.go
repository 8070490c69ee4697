package score

import (
	"slices"

	"github.com/memrecall/memrecall/memory"
)

// MaxTypeBoost caps what naming a type's vocabulary adds to a match.
const MaxTypeBoost = 2

// typeVocabulary lists, per memory type, the words with which a query asks
// for that kind of memory (spec §2.4 describes the types). A query token
// counts when it is a word or the word with an inflection the matching
// rule allows (the word acts as the query token and the query token as the
// field token), so "preferences" and "deadlines" count too. Words are
// stored normalised. A few non-English words cover the fixture's languages.
func typeVocabulary(t memory.Type) []string {
	switch t {
	case memory.TypeUser:
		return []string{"prefer", "preference", "preferred", "profile", "personal", "habit",
			"favorite", "favourite", "background", "expertise",
			"предпочтение", "предпочитаю", "preferencia", "préférence", "vorliebe"}
	case memory.TypeFeedback:
		return []string{"feedback", "correction", "corrected", "lesson", "mistake", "avoid",
			"rule", "convention", "guideline",
			"ошибка", "правило", "corrección", "erreur", "fehler"}
	case memory.TypeProject:
		return []string{"project", "deadline", "incident", "goal", "milestone", "release",
			"sprint", "roadmap", "outage", "launch", "freeze", "status",
			"проект", "дедлайн", "proyecto", "projet", "projekt"}
	case memory.TypeReference:
		return []string{"reference", "docs", "documentation", "link", "dashboard", "url",
			"wiki", "runbook", "endpoint", "channel",
			"ссылка", "документация", "enlace", "documentación", "lien"}
	}
	return nil
}

// typeBoost counts query tokens that name t's vocabulary, capped.
func typeBoost(t memory.Type, tokens []string) int {
	vocab := typeVocabulary(t)
	var keys []string
	n := 0
	for _, q := range tokens {
		// inflects(w, q) holds exactly when w is one of q's readings, so
		// the few readings of q are looked up instead of testing every
		// word.
		keys = appendInflectionKeys(keys[:0], q)
		for _, k := range keys {
			if slices.Contains(vocab, k) {
				n++
				break
			}
		}
		if n >= MaxTypeBoost {
			return MaxTypeBoost
		}
	}
	return n
}

// namesType reports whether query word w names some type's vocabulary.
func namesType(w string) bool {
	for _, t := range memory.Types {
		if typeBoost(t, []string{w}) > 0 {
			return true
		}
	}
	return false
}
