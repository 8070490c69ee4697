package score

import (
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// MaxQueryTokens bounds the distinct tokens of a query. A long prompt keeps
// both edges: what the user asks first and what they ask last.
const MaxQueryTokens = 64

// MaxRecentTools bounds the recent tool names the noise filter considers.
const MaxRecentTools = 20

// Query is a prepared query: normalised, deduplicated, bounded tokens, the
// type boost each memory type earns from them, and the aliases of the tools
// the agent used recently. The zero Query is empty and matches nothing.
// A Query is immutable and safe to share between goroutines.
type Query struct {
	tokens []string
	// alts holds, per token, its folded form when that differs (see
	// fold), else "": the key under which a field token matches it only
	// through folding.
	alts []string
	// silentE holds, per token, the stem of the word it was typed as with
	// an -ing or -ed ending replaced by a silent e, when that differs
	// from the token (see silentEKey), else "": a second exact key, so
	// "triaging" finds "triage" as "triage" finds "triaging".
	silentE []string
	// translit holds, per token with an umlaut, its German transliteration
	// (germanFold: "müller" → "mueller"), else "": a second folded key.
	translit []string
	boost    [len(memory.Types) + 1]int // indexed by memory.Type
	aliases  []string
	// lookup maps each key a field token may be filed under to the query
	// tokens it matches (see keyRef), for scoring a document that is not
	// indexed; sketch has a bit set for each key's (length, first byte,
	// last byte), a cheap filter before the map.
	lookup map[string]keyRef
	sketch [4]uint64
	// heads has a bit for each key's head (its first three or four
	// bytes, see headBit; headBits of them) and shortKey is the length
	// of its shortest key of minWordRunes bytes or more (at most 63;
	// noShortKey when it has none): a key of a field token shares the
	// token's head (but for the cases mayMatch lets through) and is no
	// longer (see appendKeys), so a field token whose head is absent, or
	// that is shorter than every key, cannot match.
	heads    [headBits / 64]uint64
	shortKey int
	// thaiHeads has a bit for the first two code points of each key that
	// starts with two Thai ones (thaiHead): a Thai n-gram of a field is
	// its own only key, and its first code point, one of 44 consonants,
	// is a head a third of a Thai text's n-grams would share. The raw
	// pass asks this filter instead (thaiHeadMayMatch).
	thaiHeads [4]uint64
	// cjkPairs has a bit for each key of two CJK code points (those
	// isRawCJK3 accepts), placed by both (cjkPair): a CJK bigram of a
	// field is its own only key, and the raw pass (cjkRunTo) asks this
	// filter for every bigram. A head filter passed every bigram that
	// starts with a particle such as の when a query key does.
	cjkPairs [cjkPairBits / 64]uint64
	// vocabulary has bit i set when token i names a kind of memory (a
	// type's vocabulary word, as typed); it counts in the evidence only
	// when some document matches it (see weigh), and is never a name.
	vocabulary uint64
	// names has bit i set when token i is a name rather than a word: it
	// holds a digit (a ticket key's number, a host's index, a version) or
	// is a joined name, snake_case, kebab-case or dotted (see isName,
	// nameToken). The name of a recent tool (one of aliases) is left
	// out: the agent is using that tool, so naming it does not single
	// out a note.
	names uint64
	// common has bit i set when token i is one of the most common English
	// words (isCommonWord): it weighs less as evidence (see weigh).
	common uint64
	// units[i] is token i's weight as evidence: a word counts two, a CJK
	// bigram or a Thai-like cluster n-gram one (half a word: most Chinese
	// words are two characters, and a run of n characters gives n−1
	// overlapping bigrams).
	units []int32
	// rule is the answer rule (shippedRule unless a test varies it).
	rule answerRule
}

// keyRef says which query tokens a key matches: exactly (the key is the
// token) or through folding (the key is the token's folded form).
type keyRef struct {
	exact, folded uint64
}

// Units of evidence of a word and of an n-gram of an unsegmented script.
const (
	wordUnits = 2
	gramUnits = 1
)

// NewQuery prepares text and the names of recently used tools (most recent
// first; only the first MaxRecentTools distinct names count). Function
// words ("the", "what", "для") are dropped; the other tokens are
// deduplicated in order of first appearance; past MaxQueryTokens the first
// and last MaxQueryTokens/2 distinct tokens are kept; each is then
// replaced by its light stem (see Matches), merging forms of one word.
func NewQuery(text string, recentTools []string) Query {
	q := Query{rule: shippedRule(), shortKey: noShortKey}
	norm := Normalize(text)
	var words []string
	forEachTokenOf(norm, true, func(tok string) { words = append(words, tok) })
	words = boundTokens(dedupe(dropStopwords(words)))
	// The type boost reads the words as typed ("docs" names the reference
	// vocabulary); matching uses their stems, the keys the index files
	// field tokens under (see Matches), so "retries" and "retry" are one
	// token.
	for _, t := range memory.Types {
		q.boost[t] = typeBoost(t, words)
	}
	stems := make([]string, len(words))
	for i, w := range words {
		stems[i] = lightStem(w)
	}
	q.tokens = dedupe(stems)
	q.silentE = make([]string, len(q.tokens))
	for _, w := range words {
		stem := lightStem(w) // dedupe reused stems' array
		if k := silentEKey(w, stem); k != "" {
			if t := slices.Index(q.tokens, stem); q.silentE[t] == "" {
				q.silentE[t] = k
			}
		}
	}
	for _, w := range words {
		if namesType(w) {
			q.vocabulary |= 1 << slices.Index(q.tokens, lightStem(w))
		}
	}
	q.aliases = toolAliases(recentTools)
	q.lookup = make(map[string]keyRef, len(q.tokens))
	q.alts = make([]string, len(q.tokens))
	q.translit = make([]string, len(q.tokens))
	q.units = make([]int32, len(q.tokens))
	// add files key k under the query tokens of ref.
	add := func(k string, ref keyRef) {
		r := q.lookup[k]
		r.exact |= ref.exact
		r.folded |= ref.folded
		q.lookup[k] = r
		b := sketchBit(len(k), k[0], k[len(k)-1])
		q.sketch[b/64] |= 1 << (b % 64)
		if len(k) >= 3 {
			h := headBit(k)
			q.heads[h/64] |= 1 << (h % 64)
		}
		if len(k) >= 6 && isThai3(k[0], k[1], k[2]) && isThai3(k[3], k[4], k[5]) {
			h := thaiHead(k[1], k[2], k[4], k[5])
			q.thaiHeads[h/64] |= 1 << (h % 64)
		}
		if len(k) == 6 && isRawCJK3(k[0], k[1], k[2]) && isRawCJK3(k[3], k[4], k[5]) {
			h := cjkPair(cjkIndex(k[0], k[1], k[2]), cjkIndex(k[3], k[4], k[5]))
			q.cjkPairs[h/64] |= 1 << (h % 64)
		}
		if len(k) >= minWordRunes {
			q.shortKey = min(q.shortKey, len(k), 63)
		}
	}
	for i, t := range q.tokens {
		add(t, keyRef{exact: 1 << i})
		if k := q.silentE[i]; k != "" {
			add(k, keyRef{exact: 1 << i})
		}
		q.units[i] = gramUnits
		if isWordToken(t) {
			q.units[i] = wordUnits
			if isName(t) {
				if !slices.Contains(q.aliases, t) {
					q.names |= 1 << i
				}
			} else if isCommonWord(t) {
				q.common |= 1 << i
			}
			// A token of a letter and marks alone (ـَّ, the NFKC of
			// U+FCF2) folds to nothing: no key is empty, so it has no
			// folded form.
			a := fold(t)
			if a != t && a != "" {
				q.alts[i] = a
				add(a, keyRef{folded: 1 << i})
			}
			if g := germanFold(t); g != "" && g != a {
				q.translit[i] = g
				add(g, keyRef{folded: 1 << i})
			}
		}
	}
	return q
}

// apply records in masks that a field token filed under key in the fields
// of bits matches the query tokens key refers to.
func (q *Query) apply(masks *[MaxQueryTokens]field, key string, bits field) {
	if r, ok := q.position(key); ok {
		r.apply(masks, bits)
	}
}

// applyBytes is apply for a key held in a buffer (a folded key, a Thai
// n-gram with ำ decomposed): looking it up copies nothing.
func (q *Query) applyBytes(masks *[MaxQueryTokens]field, key []byte, bits field) {
	if len(key) == 0 {
		return
	}
	if b := sketchBit(len(key), key[0], key[len(key)-1]); q.sketch[b/64]&(1<<(b%64)) == 0 {
		return
	}
	if r, ok := q.lookup[string(key)]; ok {
		r.apply(masks, bits)
	}
}

// apply records in masks the query tokens of r, for a key found in the
// fields of bits.
func (r keyRef) apply(masks *[MaxQueryTokens]field, bits field) {
	for e := r.exact; e != 0; e &= e - 1 {
		masks[bits64(e)] |= bits
	}
	if r.folded != 0 {
		fb := folded(bits)
		for e := r.folded; e != 0; e &= e - 1 {
			masks[bits64(e)] |= fb
		}
	}
}

// headBit places a token of 3+ bytes by its head: its first three bytes,
// or four when it starts with a two-byte letter (Cyrillic, Greek, Latin
// with accents, Arabic, Hebrew), where three bytes are a letter and a
// half that half the words of a text share. A key of a field token is the
// token, a prefix of it of at least three code points (which hold at
// least four bytes after a two-byte letter), or one of the few keys
// mayMatch lets through, so it has the token's head.
func headBit(t string) uint {
	// headSum(t[0], t[1], t[2]), written out: with the call, the
	// inliner's cost of headMayMatch passed its budget.
	h := uint(t[0])*131 + uint(t[1])*31 + uint(t[2])
	if t[0] >= 0xC0 && t[0] < 0xE0 && len(t) > 3 {
		h = h*17 + uint(t[3])
	}
	return h % headBits
}

// headSum is headBit's hash of a token's first three bytes, before the
// fourth byte of a two-byte letter's head and the modulus
// (TestHeadSum).
func headSum(c0, c1, c2 byte) uint { return uint(c0)*131 + uint(c1)*31 + uint(c2) }

// headBits is the size of the heads filter. Three lower-case ASCII
// letters give headBit about 4,000 values: with 256 bits, one word token
// in 16 to 30 of a text passed the filter for an eight-word query and
// paid for its keys (appendKeys, some 1,200 instructions) for nothing
// (docs/decisions/0225-cold-rank-scorer.md).
const headBits = 4096

// mayMatch reports whether some key of field token f could be a query
// token; false means none is, so the keys need not be computed.
func (q *Query) mayMatch(f string) bool {
	word := !isASCII(f) && isWordToken(f)
	return q.mayMatchFolding(f, word && needsFold(f))
}

// mayMatchFolding is mayMatch for a caller that has already decided
// whether f is a non-ASCII word token that folding changes (needsFold):
// forEachKey decides it once per token, for this filter and for the
// folded keys it files.
func (q *Query) mayMatchFolding(f string, folds bool) bool {
	if len(f) < 3 || strings.HasPrefix(f, arabicArticle) {
		return true // keys that drop the article start elsewhere
	}
	if strings.HasSuffix(f, "ing") && len(f) <= 2*utf8.UTFMax+3 && utf8.RuneCountInString(f) == 5 {
		return true // the silent-e key of "using" is "use": another head
	}
	if ieKeyElsewhere(f) {
		return true
	}
	if folds && q.foldedMayMatch(f) {
		return true // its folded keys may start elsewhere (été → ete)
	}
	if !q.headMayMatch(f) {
		return false
	}
	if !isASCII(f) {
		return true // a non-ASCII ending of three runes can be 12 bytes
	}
	// ASCII keys are stems of readings of f: no longer than f (the
	// silent-e reading of "configuring" is 2 shorter) and at least
	// minWordRunes long; stemming may take off several endings
	// ("embeddings" → "emb").
	return len(f) >= q.shortKey
}

// noShortKey is Query.shortKey when the query has no key of minWordRunes
// bytes or more: longer than any token.
const noShortKey = math.MaxInt

// mayMatchASCII is mayMatchFolding(f, false) for an ASCII token f of 3+
// bytes: the same cases, without those no ASCII token meets (the Arabic
// article, a non-ASCII ending), and headBit without its two-byte-letter
// case (an ASCII token starts with an ASCII byte). It is the prefilter
// the byte loops ask of every word (scoreASCIIField, applyWord), written
// small enough to inline into them: most words fail it, and a call per
// word was a visible share of a cold rank (decision 0225).
// TestPropMayMatchASCII holds it to mayMatchFolding.
func (q *Query) mayMatchASCII(f string) bool {
	// The length test first: it reads no byte of f, and f[2] exists
	// when it passes (shortKey ≥ minWordRunes). The head is headSum's,
	// written out: with the call, the cost passed the inliner's budget.
	return len(f) >= q.shortKey && q.hasHead((uint(f[0])*131+uint(f[1])*31+uint(f[2]))%headBits) || asciiKeyElsewhere(f)
}

// asciiKeyElsewhere reports whether a key of ASCII token f (3+ bytes) may
// start elsewhere than f does: the silent-e key of "using" ("use"), or
// the -ie rule (ieKeyElsewhere).
func asciiKeyElsewhere(f string) bool {
	return len(f) == 5 && f[2:] == "ing" || ieKeyElsewhere(f)
}

// ieKeyElsewhere is the filters' -ie rule (mayMatchFolding,
// asciiKeyElsewhere), written once: a token of 5+ bytes with "ie" at its
// third and fourth bytes may have a key that turns the "ie" into a "y"
// there ("tries", "try"), whose head is not the token's. lightStem's
// -ies, -ied and -ie rules keep three bytes before the "y" today, so no
// such key is made (TestPropKeysKeepHead checks generated tokens' keys,
// and fails for a stemmer that would need the rule): the rule only lets a
// few tokens past the head test ("client", 0.13 % of the committed
// corpora's ASCII tokens) that such a stemmer would need.
func ieKeyElsewhere(f string) bool { return len(f) >= 5 && f[2] == 'i' && f[3] == 'e' }

// headMayMatch reports whether t (3+ bytes) has a query token's head
// (headBit). For an n-gram (a CJK bigram or a Thai-like cluster n-gram,
// which is its own only key) it is mayMatch's whole test: none of
// mayMatch's other cases applies to a token of non-ASCII letters at least
// six bytes long.
func (q *Query) headMayMatch(t string) bool {
	return q.hasHead(headBit(t))
}

// hasHead reports whether heads has bit h (h < headBits): a key's head
// hashes there.
func (q *Query) hasHead(h uint) bool { return q.heads[h/64]&(1<<(h%64)) != 0 }

// isThai3 reports whether c c1 c2 is a code point of the Thai block
// U+0E00–U+0E7F.
func isThai3(c, c1, c2 byte) bool { return c == 0xE0 && c1&0xFE == 0xB8 && c2&0xC0 == 0x80 }

// thaiHead places a token that starts with two code points of the Thai
// block, E0 a1 a2 and E0 b1 b2, in the 256-bit thaiHeads.
func thaiHead(a1, a2, b1, b2 byte) uint {
	a := uint(a1&1)<<6 | uint(a2&0x3F)
	b := uint(b1&1)<<6 | uint(b2&0x3F)
	return (a*37 + b) % 256
}

// thaiHeadMayMatch reports whether a Thai n-gram that starts with E0 a1
// a2 E0 b1 b2 may be a query key (see thaiHeads).
func (q *Query) thaiHeadMayMatch(a1, a2, b1, b2 byte) bool {
	h := thaiHead(a1, a2, b1, b2)
	return q.thaiHeads[h/64]&(1<<(h%64)) != 0
}

// foldedMayMatch reports whether a folded key (see forEachKey) of f, a
// non-ASCII word token that folding changes, could be a query token. A
// token foldFast covers (Latin-1, Cyrillic) folds letter by letter, to
// one or two letters each, so each of its keys — a prefix of at least
// three letters — folds to a prefix of its fold of at least three code
// points, with the fold's head: when that is not a query head, no folded
// key is a query token. Only the silent-e key (céing → cée) can differ
// there, so "-ing" tokens, and any token foldFast does not cover, may
// match. A token with an umlaut has German transliterations too (germanFold
// of each key that holds one): each starts with the fold of the
// transliteration of the token's first three code points (ü → ue), so
// that head is tested as well.
func (q *Query) foldedMayMatch(f string) bool {
	if strings.HasSuffix(f, "ing") {
		return true // the silent-e key
	}
	head, n, ok := foldHeadFast(f)
	if !ok || q.headMayMatch(string(head[:n])) {
		return true
	}
	if !hasUmlaut(f) {
		return false
	}
	// The transliteration of f's first three code points: at least three
	// code points, at most 3×4 bytes.
	var tr [12]byte
	m, k := 0, 0
	for _, r := range f {
		if k == 3 {
			break
		}
		k++
		switch r {
		case 'ä':
			m += copy(tr[m:], "ae")
		case 'ö':
			m += copy(tr[m:], "oe")
		case 'ü':
			m += copy(tr[m:], "ue")
		default:
			m += utf8.EncodeRune(tr[m:], r)
		}
	}
	head, n, ok = foldHeadFast(string(tr[:m]))
	return !ok || q.headMayMatch(string(head[:n]))
}

// sketchBit places a non-empty token of n bytes that starts with byte
// first and ends with last in the 256-bit sketch.
func sketchBit(n int, first, last byte) uint {
	return (uint(n)*31 + uint(first)*7 + uint(last)) % 256
}

// position returns the query tokens that key matches.
func (q *Query) position(key string) (keyRef, bool) {
	if key == "" {
		return keyRef{}, false
	}
	if b := sketchBit(len(key), key[0], key[len(key)-1]); q.sketch[b/64]&(1<<(b%64)) == 0 {
		return keyRef{}, false
	}
	r, ok := q.lookup[key]
	return r, ok
}

// bits64 is the position of the lowest set bit of a non-zero mask.
func bits64(m uint64) int { return bitsTrailingZeros(m) }

// Tokens returns the query's tokens. The slice is shared; do not modify it.
func (q Query) Tokens() []string { return q.tokens }

// Empty reports that the query has no token, so nothing can match it.
func (q Query) Empty() bool { return len(q.tokens) == 0 }

// Unranked reports that the query has nothing to score (no token) and
// nothing to filter by (no recent tool): Index.Rank keeps every non-nil
// document of its input, in order, and ranks none, which is what KeepAll
// returns. It is the one statement of that rule; Rank and a host that skips
// Rank for such a query (decision 0812) both ask it.
func (q Query) Unranked() bool { return len(q.tokens) == 0 && len(q.aliases) == 0 }

// ToolAliases returns the names under which the recent tools are looked for
// in documents. The slice is shared; do not modify it.
func (q Query) ToolAliases() []string { return q.aliases }

// typeBoostFor returns the boost a matching document of type t earns.
func (q Query) typeBoostFor(t memory.Type) int {
	if int(t) < len(q.boost) {
		return q.boost[t]
	}
	return 0
}

// dropStopwords removes function words in place.
func dropStopwords(toks []string) []string {
	out := toks[:0]
	for _, t := range toks {
		if !isStopword(t) {
			out = append(out, t)
		}
	}
	return out
}

// dedupe removes repeats in place, keeping first appearances in order.
func dedupe(toks []string) []string {
	seen := make(map[string]struct{}, len(toks))
	out := toks[:0]
	for _, t := range toks {
		if _, ok := seen[t]; ok {
			continue
		}
		seen[t] = struct{}{}
		out = append(out, t)
	}
	return out
}

// boundTokens keeps the first and last MaxQueryTokens/2 of distinct tokens.
func boundTokens(toks []string) []string {
	if len(toks) <= MaxQueryTokens {
		return toks
	}
	half := MaxQueryTokens / 2
	out := make([]string, 0, MaxQueryTokens)
	out = append(out, toks[:half]...)
	return append(out, toks[len(toks)-half:]...)
}

func bitsTrailingZeros(m uint64) int { return bits.TrailingZeros64(m) }

// isName reports whether a word token names something rather than saying
// something: it holds a digit, or it is a joined name (a snake_case
// identifier, a kebab-case or dotted name: see isJoiner) that is not an
// abbreviation of single letters ("e.g", "i.e", "a.m", "u.s"), which
// prose of any subject holds, nor a hyphenated or dotted pair of common
// English words ("long-term", "follow-up", "real-time", "read-only"),
// which is prose too. A snake_case identifier is a name whatever its
// parts ("post_message"): prose does not join words with "_".
func isName(tok string) bool {
	return strings.ContainsAny(tok, "0123456789") ||
		isJoined(tok) && !isInitials(tok) && (strings.Contains(tok, "_") || !commonParts(tok))
}

// commonParts reports whether every part of a token joined by "-" or "."
// is a common English word (isCommonWord, on its light stem).
func commonParts(tok string) bool {
	for part := range strings.FieldsFuncSeq(tok, func(r rune) bool { return r == '-' || r == '.' }) {
		if !isCommonWord(lightStem(part)) {
			return false
		}
	}
	return true
}

// isInitials reports whether every part of a joined token is a single
// code point, as in "e.g" or "u.s".
func isInitials(tok string) bool {
	n := 0 // code points of the current part
	for _, r := range tok {
		if r < utf8.RuneSelf && isJoiner(byte(r)) {
			n = 0
		} else if n++; n > 1 {
			return false
		}
	}
	return true
}
