package score

import (
	"math/bits"
	"unicode/utf8"
)

// asciiWordByte marks the bytes that belong to a word run of lower-case
// ASCII text: the tokenizer's classWord (letters and digits) but upper
// case, which raw text must lower first. A full byte table needs no
// bounds check in the hot loop.
var asciiWordByte = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = asciiClass[c] == classWord && !('A' <= c && c <= 'Z')
	}
	return t
}()

// wordRunEnd returns the end of the run of lower-case ASCII letters and
// digits of s that starts at i: the first index from i whose byte is
// anything else (upper case, a byte of a multi-byte code point), or
// len(s). It reads eight bytes at a time, so a typical word costs one
// step instead of one per byte. Both the ASCII loop and the raw pass
// (rawWordEnd) run on it.
func wordRunEnd(s string, i int) int {
	const high = 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		// nonWordBytes reads ASCII: a byte ≥ 0x80 is not a word byte.
		x := load64(s[i : i+8])
		if nw := nonWordBytes(x) | x&high; nw != 0 {
			return i + bits.TrailingZeros64(nw)/8
		}
	}
	for i < len(s) && asciiWordByte[s[i]] {
		i++
	}
	return i
}

// nonWordBytes sets the high bit of each byte of x, eight ASCII bytes,
// that is not a lower-case letter or a digit. It is written to be
// inlined: wordRunEnd calls it once per eight bytes of every word.
func nonWordBytes(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	// A byte's high bit is set in x|high − c·ones when the byte is ≥ c:
	// with the high bit forced on, subtracting c cannot borrow across
	// bytes (c ≤ 0x80).
	y := x | high
	lower := (y - 'a'*ones) &^ (y - ('z'+1)*ones)
	digit := (y - '0'*ones) &^ (y - ('9'+1)*ones)
	return ^(lower | digit) & high
}

// scoreASCII is scoreASCIIField on every field of text, whose normalised
// fields are all ASCII.
func scoreASCII(q *Query, text *docText, buf *[]string, masks *[MaxQueryTokens]field) {
	for fi, s := range text {
		scoreASCIIField(q, s, fieldOf[fi], buf, masks)
	}
}

// asciiScan sorts the bytes of raw text for scoreASCIIField: a word byte
// (asciiWordByte), a byte the loop stops at (upper case, which lowers,
// and any byte of a multi-byte code point) or a separator.
var asciiScan = func() (t [256]uint8) {
	for c := range t {
		switch {
		case asciiWordByte[c]:
			t[c] = scanWord
		case c >= utf8.RuneSelf || 'A' <= c && c <= 'Z':
			t[c] = scanStop
		case isJoiner(byte(c)):
			t[c] = scanJoiner
		}
	}
	return t
}()

// asciiScan's classes: a joiner (isJoiner) is a separator that may join
// two runs.
const (
	scanSep uint8 = iota
	scanWord
	scanStop
	scanJoiner
)

// scoreASCIIField is scoreField for the part of a field's text s that is
// lower-case ASCII (most memory text): the same tokens, found by a loop
// over bytes instead of the general tokenizer with its per-rune
// classification and per-token callbacks, and the same test per token
// (the query's prefilter, then the token's keys among the query's
// tokens). A directly scored document is the whole cost of a cold query's
// ranking, so this loop is that cost. TestPropScoreASCIIEqualsTokens
// checks it against the tokenizer.
//
// The tokens of ASCII text (see forEachTokenOf) are every word run of at
// least minWordRunes bytes and every chain of two or more runs joined by
// single joiners (create_issue, eta-predictor-cg), whatever the runs' lengths.
//
// The loop stops before a token that holds, or that normalisation could
// join to, an upper-case letter or a byte of a multi-byte code point, and
// returns rest, where the text from that point on starts: the tokens of
// s are those it scored and those of s[rest:] (TestScoreFieldSplits).
// There, s[rest] is an ASCII letter or digit that starts a chain, or an
// ASCII separator that joins nothing after it, followed by the byte that
// stopped the loop; normalisation keeps s[:rest] as it is and cannot
// compose across s[rest], so Normalize(s) is s[:rest] +
// Normalize(s[rest:]). rest is len(s) when the loop reached the end, as
// it always does on lower-case ASCII text. It finds out without a pass
// over s of its own (asciiCase).
func scoreASCIIField(q *Query, s string, f field, buf *[]string, masks *[MaxQueryTokens]field) (rest int) {
	// The loop is written for the common word: its end found by one
	// eight-byte step in line, the prefilter in line, and the next
	// separator passed over in the same iteration. What calls it makes
	// (a long word's wordRunEnd, applyASCII for a token past the
	// prefilter) are rare, so the loop's state stays in registers
	// between words: the closure it called for every word spilled and
	// reloaded it, about 200 instructions a word (decision 0228).
	chain := -1 // start of the open chain of joined runs; -1 when none
	for i := 0; i < len(s); {
		if k := asciiScan[s[i]]; k != scanWord {
			if k == scanStop {
				// (No chain is open here.) The separator before it
				// goes along: a mark may compose with it.
				return max(i-1, 0)
			}
			i++
			continue
		}
		start := i
		if i+8 <= len(s) {
			x := load64(s[i : i+8])
			if nw := nonWordBytes(x) | x&0x8080808080808080; nw != 0 {
				i += bits.TrailingZeros64(nw) / 8
			} else {
				i = wordRunEnd(s, i+8)
			}
		} else {
			i = wordRunEnd(s, i)
		}
		if chain < 0 {
			chain = start
		}
		// The run ends at a separator, at a byte that may continue it,
		// or at a joiner before a byte that continues the chain or may:
		// in the second and third cases the chain is left to be scored
		// from its start with what follows.
		joined := false
		if i < len(s) {
			switch asciiScan[s[i]] {
			case scanStop:
				return chain
			case scanJoiner:
				if i+1 < len(s) {
					switch asciiScan[s[i+1]] {
					case scanStop:
						return chain
					case scanWord:
						joined = true
					}
				}
			}
		}
		// mayMatchASCII, the prefilter most words fail, is inlined here;
		// applyASCII, for those that pass it, is a call.
		if i-start >= minWordRunes && q.mayMatchASCII(s[start:i]) {
			q.applyASCII(s[start:i], f, buf, masks)
		}
		// Past the joiner, or past the separator (or the joiner that
		// joins nothing) after the run; at the end, past len(s).
		i++
		if joined {
			continue // the next run continues the chain
		}
		if chain < start && q.mayMatchASCII(s[chain:i-1]) {
			// A chain of two or more runs (3+ bytes).
			q.applyASCII(s[chain:i-1], f, buf, masks)
		}
		chain = -1
	}
	return len(s)
}

// applyASCII records in masks the query tokens that the keys of the
// ASCII token tok match in field f: the part of scoreASCIIField's test
// that follows the prefilter.
func (q *Query) applyASCII(tok string, f field, buf *[]string, masks *[MaxQueryTokens]field) {
	*buf = appendKeys((*buf)[:0], tok)
	for _, k := range *buf {
		q.apply(masks, k, f)
	}
}

// scoreField records in masks the query tokens that the tokens of one
// field's text s (raw or normalised: Normalize is idempotent) match in
// field f. Lower-case ASCII text takes the byte loop; where it stops
// (see scoreASCIIField), ASCII with upper case is lowered and takes it,
// text that normalisation keeps as it is takes the one-decode loop of
// scoreRawField, and the rest is normalised and tokenised by the general
// tokenizer.
func scoreField(q *Query, s string, f field, buf *[]string, masks *[MaxQueryTokens]field) {
	rest := scoreASCIIField(q, s, f, buf, masks)
	if rest == len(s) {
		return
	}
	s = s[rest:]
	if asciiCase(s) != notASCII {
		scoreASCIIField(q, lowerASCII(s), f, buf, masks)
		return
	}
	if scoreRawField(q, s, f, buf, masks) {
		return
	}
	forEachFieldKey(q, Normalize(s), f, buf, func(k string, f field) { q.apply(masks, k, f) })
}
