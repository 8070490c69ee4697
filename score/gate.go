package score

import (
	"cmp"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// The known-share gate (docs/decisions/0205-precision.md). A query is
// answered only when the memory knows more than a third of it: more than a
// third of its weight must be matched by documents the noise filter keeps.
// A question about something the memory does not hold ("kubernetes helm
// chart rollback" when the memory knows only "rollback", from a note on
// database migrations) shares one incidental word with it; a question the
// memory can answer shares most of its words, even when no single document
// does ("redis eviction postmortem" rightly finds a note that mentions only
// redis, because another note knows the rest). The gate reads the whole
// document set, so it is a pure function of the query and the documents,
// like the ranking.
//
// What is weighed (the gate's units):
//   - A word token (a run of a script that separates words, an identifier)
//     weighs two, and is known when some kept document matches it.
//   - A character of a CJK run (a code point with the prolonged sound
//     mark ー after it, see nextGateChar) or of a Thai, Lao, Khmer or
//     Myanmar run (a cluster, see nextCluster) weighs one, and is known
//     when some matched query token covers part of it.
//
// Those scripts are matched by overlapping bigrams (trigrams of clusters)
// because their words are not separated, and in an unsegmented sentence
// most of the bigrams straddle a word boundary: 谁负责审校翻译 gives six
// bigrams of which only 负责 审校 翻译 are words. Counting bigrams, a note
// that holds 审校 and 翻译 would know two of six — a third, gate shut —
// although it knows two of the sentence's four words. Counting the
// characters those matches cover, it knows four of seven. A character
// weighs half a word because a two-character bigram is the smallest thing
// matched in those scripts and the commonest length of a Chinese word;
// weighing each run as a single unit instead would let a known English
// word open a mixed query whose long CJK part the memory does not know.
// A character covered by no kept query token (the particle の of
// エレベーターの点検, which the one-script rule pairs with nothing) weighs
// nothing, like a stopword; a character that recurs with the same covering
// tokens counts once, as a repeated word does.

// Weights of the gate's units: a character of an unsegmented script is half
// a word.
const (
	gateWordWeight = 2
	gateCharWeight = 1
)

// gateUnit is a share of a query the known-share gate weighs: the query
// tokens whose match makes it known (a bit per token position) and its
// weight. Units with the same tokens are merged, their weights summed.
type gateUnit struct {
	tokens uint64
	weight int
}

// gateUnits returns the units of a query whose tokens, lookup and
// vocabulary are set; norm is its normalised text.
func gateUnits(q *Query, norm string) []gateUnit {
	weights := make(map[uint64]int, len(q.tokens))
	for i, t := range q.tokens {
		if r, _ := utf8.DecodeRuneInString(t); classify(r) != classCJK && classify(r) != classSEA {
			weights[1<<i] += gateWordWeight
		}
	}
	type char struct {
		tokens uint64
		text   string
	}
	seen := make(map[char]struct{})
	var starts []int
	var covered []uint64
	forEachUnsegmentedRun(norm, func(run string, c runeClass) {
		// starts[k] is where the run's k-th character begins.
		starts = starts[:0]
		for i := 0; i < len(run); {
			starts = append(starts, i)
			if c == classSEA {
				i = nextCluster(run, i)
			} else {
				i = nextGateChar(run, i)
			}
		}
		covered = append(covered[:0], make([]uint64, len(starts))...)
		span := func(a, b int) {
			i, ok := q.lookup[run[a:b]]
			if !ok {
				return // a stopword or past MaxQueryTokens
			}
			// From the character that holds a to the last that starts
			// before b: a bigram can begin inside ター.
			k := sort.Search(len(starts), func(j int) bool { return starts[j] > a }) - 1
			for ; k < len(starts) && starts[k] < b; k++ {
				covered[k] |= 1 << i
			}
		}
		if c == classSEA {
			clusterGramSpans(run, true, span)
		} else {
			queryBigramSpans(run, span)
		}
		for k, mask := range covered {
			if mask == 0 {
				continue
			}
			end := len(run)
			if k+1 < len(starts) {
				end = starts[k+1]
			}
			key := char{mask, run[starts[k]:end]}
			if _, dup := seen[key]; dup {
				continue
			}
			seen[key] = struct{}{}
			weights[mask] += gateCharWeight
		}
	})
	units := make([]gateUnit, 0, len(weights))
	for mask, w := range weights {
		units = append(units, gateUnit{mask, w})
	}
	slices.SortFunc(units, func(a, b gateUnit) int { return cmp.Compare(a.tokens, b.tokens) })
	return units
}

// nextGateChar returns the end of the gate character of a CJK run that
// starts at i: a code point with the prolonged sound mark and combining
// sound marks after it. ー lengthens the vowel of the kana before it, as a
// Thai vowel mark belongs to its consonant; counted alone it would give
// the ending ーター that katakana loanwords share (センター, モニター,
// エレベーター) the weight of three characters.
func nextGateChar(run string, i int) int {
	_, size := utf8.DecodeRuneInString(run[i:])
	for i += size; i < len(run); i += size {
		var r rune
		r, size = utf8.DecodeRuneInString(run[i:])
		if r != 0x30FC && r != 0x3099 && r != 0x309A {
			break
		}
	}
	return i
}

// forEachUnsegmentedRun calls fn with each CJK and Thai-like run of
// normalised text and its class: the runs forEachTokenOf cuts into n-grams.
func forEachUnsegmentedRun(s string, fn func(run string, c runeClass)) {
	for i := 0; i < len(s); {
		c, size := classAt(s, i)
		if c == classSep || c == classWord {
			i += size
			continue
		}
		start := i
		for i < len(s) {
			rc, size := classAt(s, i)
			if rc != c {
				break
			}
			i += size
		}
		fn(s[start:i], c)
	}
}

// answers reports whether a query whose tokens at the positions set in
// found are matched by some kept document may return results: the known
// units must weigh more than a third of all. Tokens that name a kind of
// memory ("preferences", "runbook": see typeVocabulary) ask for a type,
// not for content, and count on neither side; a query of only such tokens
// is answered.
func (q *Query) answers(found uint64) bool {
	known, total := q.knownWeight(found)
	return 3*known > total || total == 0
}

// knownWeight returns the weight of the query's content units that the
// tokens at the positions set in found make known, and the weight of all.
func (q *Query) knownWeight(found uint64) (known, total int) {
	content := ^q.vocabulary
	for _, u := range q.units {
		if u.tokens&content == 0 {
			continue
		}
		total += u.weight
		if u.tokens&content&found != 0 {
			known += u.weight
		}
	}
	return known, total
}

// anyMatchAnswers reports whether every single content token opens the
// gate (a query of one or two words, or one short CJK word), so that any
// match does; with a type word among the tokens a match of that word alone
// does not, so such queries are never short-cut.
func (q *Query) anyMatchAnswers() bool {
	if q.vocabulary != 0 || len(q.tokens) == 0 {
		return false
	}
	for i := range q.tokens {
		if !q.answers(1 << i) {
			return false
		}
	}
	return true
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
	if q.anyOpens {
		return true // some token matched, and any one opens it
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
	if q.answers(found) {
		return true
	}
	for _, k := range keys {
		if ix.slotOf[k.pos] != slotDirect {
			continue
		}
		was := found
		text := normalizedText(docs[k.pos])
		text.forEachKey(q, &ix.keyBuf, func(key string, _ field) {
			if i, ok := q.position(key); ok {
				found |= 1 << i
			}
		})
		if found != was && q.answers(found) {
			return true
		}
	}
	return false
}
