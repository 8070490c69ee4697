package score

import (
	"math/bits"

	"github.com/memrecall/memrecall/memory"
)

// The known-share gate (docs/decisions/0205-precision.md). A query is
// answered only when more than a third of its tokens are matched by some
// document that the noise filter keeps. A question about something the
// memory does not hold ("kubernetes helm chart rollback" when the memory
// knows only "rollback", from a note on database migrations) shares one
// incidental word with it; a question the memory can answer shares most of
// its words, even when no single document does ("redis eviction
// postmortem" rightly finds a note that mentions only redis, because
// another note knows the rest). The gate reads the whole document set, so
// it is a pure function of the query and the documents, like the ranking.

// answers reports whether a query whose tokens at the positions set in
// found are matched by some kept document may return results: more than a
// third of its content tokens must be. Tokens that name a kind of memory
// ("preferences", "runbook": see typeVocabulary) ask for a type, not for
// content, and count on neither side; a query of one or two content tokens
// is answered by any match.
func (q *Query) answers(found uint64) bool {
	content := ^q.vocabulary
	if len(q.tokens) < 64 {
		content &= 1<<len(q.tokens) - 1
	}
	return 3*bits.OnesCount64(found&content) > bits.OnesCount64(content) || content == 0
}

// knownTokens returns the positions of the query's tokens that some
// document of ranked matches, by plain search; ranked holds every kept
// document with a match.
func knownTokens(q *Query, ranked []Match) uint64 {
	var found uint64
	for i, qt := range q.tokens {
		for _, m := range ranked {
			if docMatches(qt, m.Doc) {
				found |= 1 << i
				break
			}
		}
	}
	return found
}

// docMatches reports whether query token qt matches a token of one of d's
// scored fields.
func docMatches(qt string, d *memory.Document) bool {
	for _, text := range [...]string{d.Title, d.Description, BodyWindow(d.Body)} {
		for _, ft := range Tokens(text) {
			if Matches(qt, ft) {
				return true
			}
		}
	}
	return false
}

// answered is the gate for Index.Rank, whose keys are its ranked
// documents (kept, score > 0). After sync every live posting belongs to a
// document of this call, so a token is matched by a ranked document when
// its list has a live posting of a document the noise filter keeps.
// Documents scored directly in this call (not indexed) have their keys
// probed again, only while the gate is still shut, so a query the memory
// knows well stops after a document or two.
func (ix *Index) answered(q *Query, docs []*memory.Document, keys []rankKey) bool {
	if q.vocabulary == 0 && len(q.tokens) <= 2 {
		return true // any match opens it
	}
	var found uint64
	for i, t := range q.tokens {
		id, ok := ix.terms[t]
		if !ok {
			continue
		}
		for _, p := range ix.lists[id] {
			if ix.slots[p.slot].gen != p.gen {
				continue
			}
			if prep := ix.slots[p.slot].prep; prep.usageOnly && len(q.aliases) > 0 && mentionsTool(prep.noiseText, q.aliases) {
				continue // removed by the noise filter
			}
			found |= 1 << i
			break
		}
	}
	for _, k := range keys {
		if q.answers(found) {
			return true
		}
		if ix.slotOf[k.pos] != slotDirect {
			continue
		}
		text := normalizedText(docs[k.pos])
		text.forEachKey(q, &ix.keyBuf, func(key string, _ field) {
			if i, ok := q.position(key); ok {
				found |= 1 << i
			}
		})
	}
	return q.answers(found)
}
