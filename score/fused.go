package score

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Scoring a field as it stands in the document, in one decode.
//
// Normalize and the tokenizer each decode every rune of a field. For text
// that normalisation leaves as it is (normalizeFast's stable code points:
// lower-case Latin-1 and Cyrillic, Thai, kana, CJK ideographs, Hangul —
// nearly all non-ASCII memory text) the normalised text is the text, so
// scanRaw tokenises and scores the raw field in one pass, checking each
// code point's stability where it classifies it. At the first code point
// it cannot vouch for (upper case, a full-width letter, anything outside
// normalizeFast's list, marks out of canonical order, invalid UTF-8) it
// gives up, and the caller restores the masks and takes the general path:
// Normalize, then forEachTokenKind. The token loops are per class, without
// a callback per token.

// classUnsure is rawClass's answer for a code point whose normalised form
// may differ from it: the field must be normalised first.
const classUnsure runeClass = 4

// rawASCII classifies the ASCII bytes of raw text: lower-case letters
// and digits are word bytes, upper-case letters are unsure (they lower),
// the rest separate.
var rawASCII = func() (t [utf8.RuneSelf]runeClass) {
	for c := range t {
		t[c] = asciiClass[c]
		if 'A' <= c && c <= 'Z' {
			t[c] = classUnsure
		}
	}
	return t
}()

// thaiRaw is what scanRaw needs of a code point of the Thai block
// U+0E00–U+0E7F, indexed by r − U+0E00, taken from the definitions:
// its class (classUnsure unless fastRune holds it stable), its canonical
// combining class, and the cluster roles nextCluster gives it.
type thaiRaw struct {
	class runeClass
	ccc   uint8
	role  uint8
}

// Cluster roles of Thai code points (see nextCluster).
const (
	thaiLeading uint8 = 1 << iota // written before its consonant
	thaiJoins                     // a mark or closing vowel: stays in the cluster
)

var thaiRawTable = func() (t [0x80]thaiRaw) {
	for i := range t {
		r := rune(0x0E00 + i)
		kind, ccc := fastRune(r)
		e := thaiRaw{class: classUnsure, ccc: ccc}
		if kind == fastStable {
			e.class = classify(r)
		}
		if isLeadingVowel(r) {
			e.role |= thaiLeading
		}
		if isMark(r) || isClosingVowel(r) {
			e.role |= thaiJoins
		}
		t[i] = e
	}
	return t
}()

// rawClass classifies the code point at s[i] of raw (not normalised)
// text and returns its size: its class when normalisation keeps it as it
// is (normalizeFast's stable code points, and the full-width forms and
// ideographic space that normalise to an ASCII separator that is not a
// joiner),
// else classUnsure. Invalid UTF-8 is unsure. TestRawClassEveryCodePoint
// and TestRawClassEverySequence check it against fastRune and classify.
func rawClass(s string, i int) (runeClass, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return rawASCII[c], 1
	}
	if i+1 < len(s) {
		// Lower-case Cyrillic а…џ and Latin-1 ß…ÿ but ÷: word letters.
		if c1 := s[i+1]; c == 0xD0 && 0xB0 <= c1 && c1 <= 0xBF || c == 0xD1 && 0x80 <= c1 && c1 <= 0x9F ||
			c == 0xC3 && 0x9F <= c1 && c1 <= 0xBF && c1 != 0xB7 {
			return classWord, 2
		}
	}
	if i+2 < len(s) {
		// CJK ideographs U+5000–U+9FFF and Hangul syllables
		// U+B000–U+CFFF by the lead byte; kana and the other Hangul
		// syllables, and Thai, by their three bytes.
		switch c1, c2 := s[i+1], s[i+2]; {
		case (0xE5 <= c && c <= 0xE9 || c == 0xEB || c == 0xEC) && c1&0xC0 == 0x80 && c2&0xC0 == 0x80:
			return classCJK, 3
		case (c == 0xE3 || c == 0xEA || c == 0xED) && stableKanaHangul(c, c1, c2):
			return classCJK, 3
		case c == 0xE0 && c1&0xFE == 0xB8 && c2&0xC0 == 0x80:
			return thaiRawTable[rune(c1&1)<<6|rune(c2&0x3F)].class, 3
		}
	}
	r, size := decodeRune(s, i)
	switch kind, _ := fastRune(r); kind {
	case fastStable:
		return classify(r), size
	case fastWide:
		if b := wideASCII(r); rawASCII[b] == classSep && !isJoiner(b) {
			return classSep, size
		}
	}
	return classUnsure, size
}

// rawClassIs reports whether the code point at s[i] is of class c.
func rawClassIs(s string, i int, c runeClass) bool {
	class, _ := rawClass(s, i)
	return class == c
}

// scoreRawField scores field text s as it stands in the document, as
// scoreField would after normalising it, and reports true; when s holds
// a code point it cannot vouch for (see rawClass) it leaves masks as they
// were and reports false. A text it scores is valid UTF-8.
func scoreRawField(q *Query, s string, f field, buf *[]string, masks *[MaxQueryTokens]field) bool {
	nt := len(q.tokens)
	var saved [MaxQueryTokens]field
	copy(saved[:nt], masks[:nt])
	if scanRaw(q, s, f, buf, masks) {
		return true
	}
	copy(masks[:nt], saved[:nt])
	return false
}

// scanRaw is scoreRawField's pass; on false, masks may hold part of it.
func scanRaw(q *Query, s string, f field, buf *[]string, masks *[MaxQueryTokens]field) bool {
	// As in forEachTokenKind: compound is the start of the joined name
	// the current word run belongs to, parts how many word runs it has so
	// far, joined says the previous run ended in a joiner (isJoiner).
	compound, parts, joined := 0, 0, false
	ok := true
	for i := 0; i < len(s); {
		class, size := rawClass(s, i)
		switch class {
		case classSep:
			i += size
		case classUnsure:
			return false
		case classWord:
			start := i
			var n int
			if i, n, ok = rawWordEnd(s, i); !ok {
				return false
			}
			if n >= minWordRunes {
				applyWord(q, s[start:i], f, buf, masks)
			}
			if joined {
				parts++
			} else {
				compound, parts = start, 1
			}
			// (An unsure code point after the joiner ends the pass
			// when the loop reaches it.)
			joined = i+1 < len(s) && isJoiner(s[i]) && rawClassIs(s, i+1, classWord)
			if joined {
				i++ // the joiner; the next run continues the compound
				continue
			}
			if parts > 1 {
				applyWord(q, s[compound:i], f, buf, masks)
			}
			parts = 0
		case classCJK:
			if i, ok = scanRawCJK(q, s, i, size, f, masks); !ok {
				return false
			}
		case classSEA:
			if i, ok = scanRawThai(q, s, i, f, masks); !ok {
				return false
			}
		}
	}
	return true
}

// rawWordEnd returns the end of the word run of raw text s that starts at
// i and its length in code points; ok is false if it meets a code point
// rawClass is unsure of.
func rawWordEnd(s string, i int) (end, n int, ok bool) {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			j := rawASCIIWordEnd(s, i)
			if j == i {
				return i, n, rawASCII[c] != classUnsure
			}
			n += j - i
			i = j
			continue
		}
		class, size := rawClass(s, i)
		switch class {
		case classWord:
			i += size
			n++
		case classUnsure:
			return i, n, false
		default:
			return i, n, true
		}
	}
	return i, n, true
}

// rawASCIIWordEnd returns the end of the lower-case ASCII letters and
// digits of s from i, reading eight bytes at a time (wordRunEnd's loop,
// for text that is not only ASCII and may hold upper case).
func rawASCIIWordEnd(s string, i int) int {
	const high = 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		// nonWordBytes reads ASCII: a byte ≥ 0x80 is not a word byte.
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		if nw := nonWordBytes(x) | x&high; nw != 0 {
			return i + bits.TrailingZeros64(nw)/8
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf && rawASCII[s[i]] == classWord {
		i++
	}
	return i
}

// scanRawCJK scores the bigrams of the CJK run of raw text s whose first
// code point is s[start:start+size] (see emitBigrams) and returns the
// run's end; ok is false if it meets a code point rawClass is unsure of.
func scanRawCJK(q *Query, s string, start, size int, f field, masks *[MaxQueryTokens]field) (end int, ok bool) {
	p, i := start, start+size // p starts the previous code point
	for i < len(s) {
		// Kana, ideographs and Hangul syllables alike by one bit of
		// cjkRaw: a run that mixes them (Japanese) takes one path.
		if i+2 < len(s) && isRawCJK3(s[i], s[i+1], s[i+2]) {
			size = 3
		} else {
			var class runeClass
			class, size = rawClass(s, i)
			if class != classCJK {
				return i, class != classUnsure
			}
		}
		if tok := s[p : i+size]; q.headMayMatch(tok) {
			q.apply(masks, tok, f)
		}
		p, i = i, i+size
	}
	return i, true
}

// cjkRawFrom and cjkRaw: cjkRaw has a bit for each code point from
// cjkRawFrom up to U+D7FF that rawClass files as CJK: hiragana
// U+3041–U+3096 and ゝゞ, katakana U+30A0–U+30FE, CJK ideographs and
// extension A, Hangul syllables (TestRawCJKBits).
const cjkRawFrom = 0x3000

// cjkRawRanges are the inclusive code point ranges cjkRaw holds.
var cjkRawRanges = [...][2]rune{{0x3041, 0x3096}, {0x309D, 0x309E}, {0x30A0, 0x30FE},
	{0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}}

// The table is filled a 64-bit word at a time: it is built in every
// process's start-up, and a bit at a time it took 1.0 M of the 2.2 M
// instructions `memrecall -h` runs (docs/decisions/0810-fresh-process-start.md).
var cjkRaw = func() (t [(0xD800 - cjkRawFrom) / 64]uint64) {
	for _, r := range cjkRawRanges {
		lo, hi := r[0]-cjkRawFrom, r[1]-cjkRawFrom // both bits set
		for w := lo / 64; w <= hi/64; w++ {
			m := ^uint64(0)
			if w == lo/64 {
				m &= ^uint64(0) << (lo % 64)
			}
			if w == hi/64 {
				m &= ^uint64(0) >> (63 - hi%64)
			}
			t[w] |= m
		}
	}
	return t
}()

// isRawCJK3 reports whether c c1 c2 is a three-byte code point that
// rawClass files as CJK.
func isRawCJK3(c, c1, c2 byte) bool {
	k := uint(c&0x0F)<<12 | uint(c1&0x3F)<<6 | uint(c2&0x3F) - cjkRawFrom
	return c&0xF0 == 0xE0 && (c1&0xC0|c2>>2&0x30) == 0xA0 && k < uint(len(cjkRaw))*64 && cjkRaw[k/64]&(1<<(k%64)) != 0
}

// scanRawThai scores the cluster n-grams of the Thai run of raw text s
// that starts at start (see clusterGramSpans and nextCluster) and returns
// the run's end; ok is false if it meets a code point rawClass is unsure
// of, or marks out of canonical order. rawClass gives classSEA only to
// Thai: Lao, Khmer and Myanmar are not in normalizeFast's list.
func scanRawThai(q *Query, s string, start int, f field, masks *[MaxQueryTokens]field) (end int, ok bool) {
	// c0 starts the current cluster, c1 and c2 the two before it (−1:
	// none); lead says the current cluster holds only leading vowels so
	// far, so the next code point is its character whatever it is.
	c2, c1, c0 := -1, -1, start
	lead := true
	var last uint8 // combining class of the previous code point
	// gram scores the n-grams that end where the current cluster ends,
	// at e: the bigram of it and the one before, and the trigram of the
	// two before.
	gram := func(e int) {
		if c1 >= 0 {
			if tok := s[c1:e]; q.headMayMatch(tok) {
				q.apply(masks, tok, f)
			}
			if c2 >= 0 {
				if tok := s[c2:e]; q.headMayMatch(tok) {
					q.apply(masks, tok, f)
				}
			}
		}
		c2, c1, c0 = c1, c0, e
	}
	i := start
	for i < len(s) {
		if s[i] != 0xE0 || i+2 >= len(s) || s[i+1]&0xFE != 0xB8 || s[i+2]&0xC0 != 0x80 {
			class, _ := rawClass(s, i)
			if class == classUnsure {
				return i, false
			}
			break // not Thai: the run ends
		}
		t := thaiRawTable[rune(s[i+1]&1)<<6|rune(s[i+2]&0x3F)]
		if t.class != classSEA {
			if t.class == classUnsure {
				return i, false
			}
			break
		}
		if t.ccc != 0 && last > t.ccc {
			return i, false // normalisation would reorder the marks
		}
		last = t.ccc
		switch {
		case lead:
			lead = t.role&thaiLeading != 0
		case t.role&thaiJoins != 0:
		default: // a new cluster starts here
			gram(i)
			lead = t.role&thaiLeading != 0
		}
		i += 3
	}
	gram(i)
	return i, true
}

// applyWord records in masks the query tokens that word token tok of a
// field f matches, through its keys and folded keys (wordKeys).
func applyWord(q *Query, tok string, f field, buf *[]string, masks *[MaxQueryTokens]field) {
	n, ok := wordKeys(q, tok, buf)
	if !ok {
		return
	}
	for _, k := range (*buf)[:n] {
		q.apply(masks, k, f)
	}
	for _, k := range (*buf)[n:] {
		q.apply(masks, k, f<<foldShift)
	}
}
