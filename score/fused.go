package score

import (
	"encoding/binary"
	"math/bits"
	"sync"
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

// raw2 is rawClass's verdict on a two-byte sequence C0–DF, 80–BF,
// indexed by the eleven bits it carries (raw2Index): its class, from the
// definitions (fastRune and classify: classUnsure unless normalisation
// keeps the code point, and for the overlong forms below U+0080), with
// raw2Folds set for a word letter that folding changes (needsFold). A
// table instead of range tests: the letters of a Cyrillic word start
// with D0 or D1 at random, which a branch predicts no better than a coin.
var raw2 = func() (t [0x800]uint8) {
	// No allocation, and a look at each code point: this runs in every
	// process's start-up.
	for r := range t {
		t[r] = uint8(classUnsure)
		if kind, _ := fastRune(rune(r)); r < 0x80 || kind != fastStable {
			continue
		}
		class := classify(rune(r))
		t[r] = uint8(class)
		// The stable two-byte letters are foldFast's: ß…ÿ, а…џ.
		if to, ok := foldFastRune(rune(r)); class == classWord && ok && to != 0 {
			t[r] |= raw2Folds
		}
	}
	return t
}()

// raw2Folds marks the letters of raw2 that fold; raw2Class masks the
// class.
const (
	raw2Folds = 0x80
	raw2Class = 0x7F
)

// raw2Index is the index in raw2 of the two-byte sequence c c1.
func raw2Index(c, c1 byte) uint { return uint(c&0x1F)<<6 | uint(c1&0x3F) }

// thaiRaw is what scanRaw needs of a code point of the Thai block
// U+0E00–U+0E7F, indexed by r − U+0E00, taken from the definitions:
// its class (classUnsure unless fastRune holds it stable or decomposes
// it as ำ), its canonical combining class, the cluster roles
// nextCluster gives it, and what normalisation writes for it.
type thaiRaw struct {
	class runeClass
	ccc   uint8
	// order is ccc − 1 for a mark (combining class above 0), 255 for any
	// other code point: a previous class above it, a mark after a mark of
	// its class or above (out of canonical order, or the start of what
	// may be a long run: see normalizeFast), hands the field over.
	order uint8
	role  uint8
	size  uint8  // the length of nfkc: 3, or 6 for ำ
	nfkc  uint64 // its normal form in UTF-8, little-endian
}

// Cluster roles of Thai code points (see nextCluster), and thaiAmRole for
// ำ, which the scanner writes decomposed (thaiAmNFKC) in the n-grams.
const (
	thaiLeading uint8 = 1 << iota // written before its consonant
	thaiJoins                     // a mark or closing vowel: stays in the cluster
	thaiAmRole                    // ำ
)

var thaiRawTable = func() (t [0x80]thaiRaw) {
	for i := range t {
		r := rune(0x0E00 + i)
		kind, ccc := fastRune(r)
		e := thaiRaw{class: classUnsure, ccc: ccc, order: ccc - 1}
		if ccc == 0 {
			e.order = 255
		}
		nfkc := string(r)
		switch kind {
		case fastStable:
			e.class = classify(r)
		case fastThaiAm:
			// ํ า: a mark and a closing vowel, both joining
			// the cluster as ำ, a closing vowel, does.
			e.class = classify(r)
			e.role |= thaiAmRole
			nfkc = thaiAmNFKC
		}
		e.size = uint8(len(nfkc))
		for j := len(nfkc) - 1; j >= 0; j-- {
			e.nfkc = e.nfkc<<8 | uint64(nfkc[j])
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

// rawThai returns thaiRawTable's entry for the code point at s[i] when it
// is of the Thai block; ok is false for anything else.
func rawThai(s string, i int) (t thaiRaw, ok bool) {
	if i+2 < len(s) && isThai3(s[i], s[i+1], s[i+2]) {
		return thaiRawTable[rune(s[i+1]&1)<<6|rune(s[i+2]&0x3F)], true
	}
	return thaiRaw{}, false
}

// rawClass classifies the code point at s[i] of raw (not normalised)
// text and returns its size: its class when normalisation keeps it as it
// is (normalizeFast's stable code points, and the full-width forms and
// ideographic space that normalise to an ASCII separator that is not a
// joiner), or when the scanner knows its normal form (ำ), else
// classUnsure. Invalid UTF-8 is unsure. TestRawClassEveryCodePoint and
// TestRawClassEverySequence check it against fastRune and classify. The
// two-byte code points, Thai, and the kana, ideographs and Hangul
// syllables are decided by the tables the scanner's loops read (raw2,
// thaiRawTable, cjkRaw), the rest by fastRune.
func rawClass(s string, i int) (runeClass, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return rawASCII[c], 1
	}
	if c >= 0xC0 && c < 0xE0 && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
		return runeClass(raw2[raw2Index(c, s[i+1])] & raw2Class), 2
	}
	if i+2 < len(s) {
		if t, ok := rawThai(s, i); ok {
			return t.class, 3
		}
		if isRawCJK3(c, s[i+1], s[i+2]) {
			return classCJK, 3
		}
		if isRawPunct3(c, s[i+1], s[i+2]) {
			return classSep, 3
		}
	}
	r, size := decodeRune(s, i)
	return rawClassRune(r), size
}

// rawClassRune is rawClass for a code point that its tables do not
// decide, by fastRune and classify.
func rawClassRune(r rune) runeClass {
	switch kind, _ := fastRune(r); kind {
	case fastStable:
		return classify(r)
	case fastWide:
		if b := wideASCII(r); rawASCII[b] == classSep && !isJoiner(b) {
			return classSep
		}
	}
	return classUnsure
}

// rawPunct has a bit for each code point of U+3000–U+303F (word 0) and
// U+FF00–U+FF7F (words 1 and 2) that rawClassRune files as a separator:
// the ideographic space and punctuation 、。 and the full-width forms of
// ASCII separators (，！？), which Chinese, Japanese and Thai text puts
// between its runs. Without it each took rawClass's decode, fastRune and
// classify. Filled from rawClassRune (192 calls at start-up, no
// allocation); TestRawClassEveryCodePoint checks rawClass throughout.
var rawPunct = func() (t [3]uint64) {
	for w, base := range [3]rune{0x3000, 0xFF00, 0xFF40} {
		for b := range rune(64) {
			if rawClassRune(base+b) == classSep {
				t[w] |= 1 << b
			}
		}
	}
	return t
}()

// isRawPunct3 reports whether c c1 c2 is a three-byte code point that
// rawPunct files as a separator.
func isRawPunct3(c, c1, c2 byte) bool {
	var w int
	switch {
	case c == 0xE3 && c1 == 0x80:
		w = 0
	case c == 0xEF && c1&0xFE == 0xBC:
		w = 1 + int(c1&1)
	default:
		return false
	}
	return c2&0xC0 == 0x80 && rawPunct[w]>>(c2&0x3F)&1 != 0
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
	var th *thaiScratch // taken from thaiScratches at the field's first Thai run
	ok := scanRawWith(q, s, f, buf, masks, &th)
	if th != nil {
		thaiScratches.Put(th)
	}
	return ok
}

// thaiScratches holds the Thai runs' buffers between fields. A buffer
// on scanRaw's stack was cleared (about 1.8 KB) on every call, for every
// field of every script, where only Thai text uses it.
var thaiScratches = sync.Pool{New: func() any { return new(thaiScratch) }}

// scanRawWith is scanRaw's loop; *th is the Thai runs' buffer, nil until
// the first Thai run takes one.
func scanRawWith(q *Query, s string, f field, buf *[]string, masks *[MaxQueryTokens]field, th **thaiScratch) bool {
	// As in forEachTokenKind: compound is the start of the joined name
	// the current word run belongs to, parts how many word runs it has so
	// far, joined says the previous run ended in a joiner (joinedAt);
	// compoundFolds says a run of the name holds a letter that folds,
	// compoundASCII that all of them are ASCII. They are fields of one
	// struct of five, which the compiler keeps in memory: only a word
	// run reads or writes them, and as five variables they were stored
	// to the stack at every step of the loop, a separator's or a CJK
	// run's too (decision 0228).
	var c struct {
		compound, parts                      int
		joined, compoundFolds, compoundASCII bool
	}
	for i := 0; i < len(s); {
		// ASCII (the spaces and words between the runs of mixed text)
		// without rawClass's call.
		class, size := rawASCII[s[i]&0x7F], 1
		if s[i] >= utf8.RuneSelf {
			// A three-byte lead goes straight to cjkRunTo, which tells
			// by the first code point whether a CJK run starts here
			// (the runs of Chinese, Japanese and mixed text): it walks
			// the run or returns at once. Only what it declines takes
			// rawClass's call.
			if s[i]&0xF0 == 0xE0 {
				if j, prev, hit := cjkRunTo(&q.cjkPairs, s, i, 0); j > i || hit {
					// Only a bigram that may be a key, or what may be
					// CJK punctuation after the run, takes the call:
					// the runs of mixed text end at a space.
					if hit || j+5 < len(s) && s[j] >= 0xE3 {
						j = q.scanCJKRun(s, i, j, prev, hit, f, masks)
					}
					if i = j; i < len(s) && s[i] == ' ' {
						i++ // the space after the run, in the same step
					}
					continue
				}
			}
			class, size = rawClass(s, i)
		}
		switch class {
		case classSep:
			i += size
		case classUnsure, classCJK:
			// (cjkRunTo took every CJK code point above: rawClass
			// files as CJK only three-byte code points isRawCJK3
			// accepts, TestRawClassCJKIsThreeBytes. Were it to file
			// another, the general path scores the field.)
			return false
		case classWord:
			start := i
			var end, n int
			var folds, ok bool
			if i+8 <= len(s) && s[i] < utf8.RuneSelf {
				// rawWordEnd's first steps, in line (decisions 0228,
				// 0230): an ASCII word of fewer than sixteen bytes that
				// ends at an ASCII byte. The second step is taken only
				// for a word of eight bytes or more (a third of the
				// generated Latin words), which called rawWordEnd.
				x := load64(s[i : i+8])
				nw := nonWordBytes(x) | x&0x8080808080808080
				j := i
				if nw == 0 && i+16 <= len(s) {
					// A word of eight bytes or more: a second step.
					x = load64(s[i+8 : i+16])
					nw = nonWordBytes(x) | x&0x8080808080808080
					j += 8
				}
				if nw != 0 {
					if j += bits.TrailingZeros64(nw) / 8; s[j] < utf8.RuneSelf {
						end, n, ok = j, j-i, rawASCII[s[j]] != classUnsure
					}
				}
			}
			if end == 0 { // (the step's end lies past s[i], a word byte)
				end, n, folds, ok = rawWordEnd(s, i)
			}
			if !ok {
				return false
			}
			i = end
			ascii := n == i-start // a code point a byte
			if n >= minWordRunes {
				if ascii {
					// applyWord's ASCII case, with its prefilter in
					// line: most words fail it (an ASCII word never
					// folds).
					if q.mayMatchASCII(s[start:i]) {
						q.applyASCII(s[start:i], f, buf, masks)
					}
				} else {
					applyWord(q, s[start:i], folds, ascii, f, buf, masks)
				}
			}
			if c.joined {
				c.parts++
				c.compoundFolds = c.compoundFolds || folds
				c.compoundASCII = c.compoundASCII && ascii
			} else {
				c.compound, c.parts, c.compoundFolds, c.compoundASCII = start, 1, folds, ascii
			}
			// (An unsure code point after the joiner ends the pass
			// when the loop reaches it.)
			if c.joined = joinedAt(s, i, rawClass); c.joined {
				i++ // the joiner; the next run continues the compound
				continue
			}
			if c.parts > 1 {
				applyWord(q, s[c.compound:i], c.compoundFolds, c.compoundASCII, f, buf, masks)
			}
			c.parts = 0
			if i < len(s) && s[i] == ' ' {
				i++ // the space after the name, in the same step
			}
		case classSEA:
			if *th == nil {
				*th = thaiScratches.Get().(*thaiScratch)
			}
			var ok bool
			if i, ok = scanRawThai(q, s, i, *th, f, masks); !ok {
				return false
			}
		}
	}
	return true
}

// scanCJKRun scores the bigrams of the CJK run of raw text s that starts
// at start (see emitBigrams) and returns where the run ends: cjkRunTo,
// called from start with any prev, returned end, last and hit, and found
// a CJK code point at start. The bigram cjkRunTo stops at for the run's
// first code point is not one (there is no code point before it in the
// run), so it is passed over; past it, cjkRunTo walks the run without a
// call and stops only where a bigram may be a query key (the query's
// pair filter, cjkPairs) or where the run ends. Every code point rawClass
// files as CJK has three bytes and is one isRawCJK3 accepts
// (TestRawClassCJKIsThreeBytes). A run that ends at CJK punctuation
// (、。，) followed by another CJK code point goes on here as a new run:
// no bigram spans the punctuation. At any other end scanRaw's loop
// classes what is there, once, and stops if it is unsure of it.
func (q *Query) scanCJKRun(s string, start, end int, last uint, hit bool, f field, masks *[MaxQueryTokens]field) int {
	i := end
	for {
		if hit {
			if i > start {
				q.apply(masks, s[i-3:i+3], f)
			}
			i, last, hit = cjkRunTo(&q.cjkPairs, s, i+3, last)
			continue
		}
		if i+5 < len(s) && isRawPunct3(s[i], s[i+1], s[i+2]) && isRawCJK3(s[i+3], s[i+4], s[i+5]) {
			last = cjkIndex(s[i+3], s[i+4], s[i+5])
			i, last, hit = cjkRunTo(&q.cjkPairs, s, i+6, last)
			continue
		}
		return i
	}
}

// rawWordEnd returns the end of the word run of raw text s that starts at
// i, its length in code points, and whether a letter of it folds; ok is
// false if it meets a code point rawClass is unsure of.
func rawWordEnd(s string, i int) (end, n int, folds, ok bool) {
	var fl uint8
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			j := wordRunEnd(s, i)
			n += j - i
			if j < len(s) && s[j] < utf8.RuneSelf {
				// wordRunEnd stopped at an ASCII byte that is not a
				// word byte: the run ends there.
				return j, n, fl&raw2Folds != 0, rawASCII[s[j]] != classUnsure
			}
			i = j // the end, or a byte of a multi-byte code point
			continue
		}
		// The two-byte letters (Cyrillic, Latin-1) by one look-up.
		if c >= 0xC0 && c < 0xE0 && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			e := raw2[raw2Index(c, s[i+1])]
			if runeClass(e&raw2Class) != classWord {
				return i, n, fl&raw2Folds != 0, runeClass(e&raw2Class) != classUnsure
			}
			fl |= e
			i += 2
			n++
			continue
		}
		class, size := rawClass(s, i)
		switch class {
		case classWord:
			i += size
			n++
		case classUnsure:
			return i, n, fl&raw2Folds != 0, false
		default:
			return i, n, fl&raw2Folds != 0, true
		}
	}
	return i, n, fl&raw2Folds != 0, true
}

// cjkRunTo walks the CJK code points of s from i, where prev is the
// index (cjkIndex) of the code point before i, a CJK one. It stops at the
// first code point that is not CJK (isRawCJK3), or at the end, with hit
// false and last the index of the run's last code point; or at a CJK
// code point whose bigram with the one before it is in the query's pair
// filter, with hit true and last that code point's index. It makes no
// call, so its state stays in registers: with the calls of the rare
// cases in the loop, the compiler kept it on the stack (decision 0227).
func cjkRunTo(pairs *[cjkPairBits / 64]uint64, s string, i int, prev uint) (end int, last uint, hit bool) {
	// Two code points a step, in one eight-byte load: their six bytes and
	// two of the next, which the step ignores. The loop's bookkeeping and
	// the load are paid once for the two (decision 0230).
	// x is a uint64, not a uint: where uint has 32 bits (386, arm), the
	// second code point's bytes would be cut off, every run would seem to
	// end after its first code point of a step, and its bigram across the
	// step would be lost.
	for ; i >= 0 && i+8 <= len(s); i += 6 {
		x := load64(s[i : i+8])
		k := uint(x&0x0F<<12 | x>>2&0xFC0 | x>>16&0x3F) // cjkIndex
		if x&0xC0C0F0 != 0x8080E0 || !cjkBit(k) {
			return i, prev, false
		}
		if h := cjkPair(prev, k); pairs[h/64]&(1<<(h%64)) != 0 {
			return i, k, true
		}
		y := x >> 24 // the second code point's three bytes, and two more
		prev = uint(y&0x0F<<12 | y>>2&0xFC0 | y>>16&0x3F)
		if y&0xC0C0F0 != 0x8080E0 || !cjkBit(prev) {
			return i + 3, k, false
		}
		if h := cjkPair(k, prev); pairs[h/64]&(1<<(h%64)) != 0 {
			return i + 3, prev, true
		}
	}
	// Four bytes a step, in one load: the code point's three and the
	// next one's first, which the step ignores.
	for ; i >= 0 && i+4 <= len(s); i += 3 {
		w := s[i : i+4]
		x := uint(w[0]) | uint(w[1])<<8 | uint(w[2])<<16 | uint(w[3])<<24
		k := x&0x0F<<12 | x>>2&0xFC0 | x>>16&0x3F // cjkIndex
		if x&0xC0C0F0 != 0x8080E0 || !cjkBit(k) {
			return i, prev, false
		}
		if h := cjkPair(prev, k); pairs[h/64]&(1<<(h%64)) != 0 {
			return i, k, true
		}
		prev = k
	}
	// The last code point of s, without a fourth byte.
	if i >= 0 && i+3 == len(s) && isRawCJK3(s[i], s[i+1], s[i+2]) {
		k := cjkIndex(s[i], s[i+1], s[i+2])
		if h := cjkPair(prev, k); pairs[h/64]&(1<<(h%64)) != 0 {
			return i, k, true
		}
		return i + 3, k, false
	}
	return i, prev, false
}

// cjkIndex is the code point of a three-byte sequence c c1 c2 (valid or
// not: the bits its lead and continuation bytes carry).
func cjkIndex(c, c1, c2 byte) uint {
	return uint(c&0x0F)<<12 | uint(c1&0x3F)<<6 | uint(c2&0x3F)
}

// cjkPairBits is the size of the query's filter of CJK bigram keys
// (Query.cjkPairs), and cjkPair places a bigram in it by its two code
// points (cjkIndex).
const cjkPairBits = 4096

func cjkPair(a, b uint) uint { return (a<<5 ^ b) % cjkPairBits }

// cjkRaw has a bit for each code point of the Basic Multilingual Plane
// that rawClass files as CJK: hiragana U+3041–U+3096 and ゝゞ, katakana
// U+30A0–U+30FE, CJK ideographs and extension A, Hangul syllables
// (TestRawCJKBits checks it against fastRune and classify). It covers the
// whole plane, every value cjkIndex gives (8 KiB; the words below U+3000
// and above U+D7A3 are zero and never touched), so a look-up needs no
// range test.

// cjkRawRanges are the inclusive code point ranges cjkRaw holds.
var cjkRawRanges = [...][2]rune{{0x3041, 0x3096}, {0x309D, 0x309E}, {0x30A0, 0x30FE},
	{0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}}

// The table is filled a 64-bit word at a time: it is built in every
// process's start-up, and a bit at a time it took 1.0 M of the 2.2 M
// instructions `memrecall -h` runs (docs/decisions/0810-fresh-process-start.md).
var cjkRaw = func() (t [0x10000 / 64]uint64) {
	for _, r := range cjkRawRanges {
		lo, hi := r[0], r[1] // both bits set
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
	return c&0xF0 == 0xE0 && (c1&0xC0|c2>>2&0x30) == 0xA0 && cjkBit(cjkIndex(c, c1, c2))
}

// cjkBit reports whether cjkRaw has the bit of code point k (< 0x10000).
func cjkBit(k uint) bool { return cjkRaw[k>>6&uint(len(cjkRaw)-1)]&(1<<(k&63)) != 0 }

// scanRawThai scores the cluster n-grams of the Thai run of raw text s
// that starts at start (see clusterGramSpans and nextCluster) and returns
// the run's end; ok is false if it meets a code point rawClass is unsure
// of, or a mark after a mark of its class or above (see normalizeFast).
// rawClass gives classSEA only to Thai: Lao, Khmer and Myanmar are not in
// normalizeFast's list.
//
// The run is copied as normalisation writes it, ำ as ํ า, into a buffer
// (ำ ends a cluster as the closing vowel า after the mark ํ does, so the
// clusters are where they are in the normalised text), with the start of
// each cluster; the n-grams are scored from there, every bigram and
// trigram of clusters, when the run ends or the buffer fills. Whether a
// code point starts a cluster is, to a branch predictor, a coin toss:
// it is counted, not branched on.
func scanRawThai(q *Query, s string, start int, th *thaiScratch, f field, masks *[MaxQueryTokens]field) (end int, ok bool) {
	nb, starts := &th.nb, &th.starts
	n, k, from := 0, 1, 1 // bytes in nb; clusters begun; first cluster whose n-grams are not scored
	starts[0] = 0
	lead := thaiLeading // the current cluster holds leading vowels alone so far
	var last uint8      // combining class of the previous code point
	i := start
	for i < len(s) {
		t, thai := rawThai(s, i)
		if !thai || t.class != classSEA {
			if class, _ := rawClass(s, i); class == classUnsure {
				return i, false
			}
			break // not Thai: the run ends
		}
		if last > t.order {
			// Normalisation would reorder the marks, or NFKC may
			// break their run (see normalizeFast).
			return i, false
		}
		last = t.ccc
		if n+6 > thaiBuf {
			// Full: score the n-grams that end before the current
			// cluster, and keep the three clusters the next ones need.
			scoreThaiGrams(q, nb, n, starts[:k], from, k-1, f, masks)
			if k < 3 || starts[k-3] == 0 {
				return i, false // three clusters longer than the buffer
			}
			cut := starts[k-3]
			n = copy(nb[:], nb[cut:n])
			starts[0], starts[1], starts[2] = 0, starts[k-2]-cut, starts[k-1]-cut
			k, from = 3, 2
		}
		// A code point after the leading vowels that does not join the
		// cluster (a mark, a closing vowel) starts a new one.
		starts[k] = int32(n)
		k += int(1 ^ (lead|t.role>>1)&1)
		lead = t.role & thaiLeading
		// Its normal form (ำ: ํ า), in one store of eight bytes.
		binary.LittleEndian.PutUint64(nb[n:n+8], t.nfkc)
		n += int(t.size)
		i += 3
	}
	scoreThaiGrams(q, nb, n, starts[:k], from, k, f, masks)
	return i, true
}

// thaiBuf is the size of scanRawThai's buffer: a run longer than that is
// scored in pieces, and three clusters longer than it (hundreds of marks
// on one letter) are handed to the general path.
const thaiBuf = 768

// thaiScratch is scanRawThai's buffer, one per field rather than per run,
// so that a run does not clear it: nb holds the run as normalisation
// writes it, from cluster 0 on, and starts[j] where cluster j starts in
// nb.
type thaiScratch struct {
	nb     [thaiBuf + 8]byte // (room for an eight-byte store at thaiBuf − 6)
	starts [thaiBuf/3 + 1]int32
}

// scoreThaiGrams scores the bigram and the trigram of clusters that end
// with each cluster j of from ≤ j < to, where cluster j starts at
// starts[j] of nb and ends where the next starts, or at n.
func scoreThaiGrams(q *Query, nb *[thaiBuf + 8]byte, n int, starts []int32, from, to int, f field, masks *[MaxQueryTokens]field) {
	// The n-gram [p, e) starts with two Thai code points, whose last two
	// bytes each the filter reads, from one load of eight bytes.
	score := func(p int32, e int) {
		x := binary.LittleEndian.Uint64(nb[p : p+8])
		if q.thaiHeadMayMatch(byte(x>>8), byte(x>>16), byte(x>>32), byte(x>>40)) {
			q.applyBytes(masks, nb[p:e], f)
		}
	}
	for j := from; j < to; j++ {
		e := n
		if j+1 < len(starts) {
			e = int(starts[j+1])
		}
		score(starts[j-1], e) // the bigram
		if j >= 2 {
			score(starts[j-2], e) // the trigram
		}
	}
}

// applyWord records in masks the query tokens that word token tok of a
// field f matches, through its keys and folded keys (see wordKeys);
// folds says whether tok holds a letter that folding changes
// (needsFold), which the scanner has seen, and ascii that it is ASCII
// (the words between the runs of mixed text), which the ASCII loop's
// prefilter takes. The folded keys of a token that foldFast covers are
// written into a buffer, not built as strings.
func applyWord(q *Query, tok string, folds, ascii bool, f field, buf *[]string, masks *[MaxQueryTokens]field) {
	if ascii {
		if !q.mayMatchASCII(tok) {
			return
		}
		*buf = appendKeys((*buf)[:0], tok)
	} else if !exactKeys(q, tok, folds, buf) {
		return
	}
	for _, k := range *buf {
		q.apply(masks, k, f)
	}
	if !folds {
		return
	}
	fb := f << foldShift
	var b [64]byte
	for _, k := range *buf {
		fk, changed, umlaut, ok := appendFoldFast(b[:0], k, false)
		if !ok {
			// Not foldFast's letters: the general fold.
			var gen [2]string
			for _, g := range appendFoldedKeys(gen[:0], []string{k}) {
				q.apply(masks, g, fb)
			}
			continue
		}
		if changed {
			q.applyBytes(masks, fk, fb)
		}
		if umlaut {
			g, _, _, _ := appendFoldFast(b[:0], k, true)
			q.applyBytes(masks, g, fb)
		}
	}
}
