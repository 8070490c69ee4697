package score

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalize returns the text the scorer compares: Unicode NFKC, then lower
// case, with the Greek final sigma ς folded onto σ (upper-case Greek has one
// sigma, so "ΒΑΣΗΣ" and "βασης" must meet). NFKC folds full-width Latin, half-width katakana and ligatures onto
// their ordinary forms, so "ｻｰﾊﾞｰ" and "サーバー" are the same word.
// Normalize is idempotent.
func Normalize(text string) string {
	// ASCII is NFKC already, and lower-casing it cannot leave NFKC: one scan
	// decides, and lower-case ASCII (most memory text) costs only that scan.
	switch asciiCase(text) {
	case asciiLower:
		return text
	case asciiUpper:
		return lowerASCII(text)
	}
	// Text in the common scripts, already NFKC (nearly all of it), is
	// decided by one more scan; see normalizeFast.
	if s, ok := normalizeFast(text); ok {
		return s
	}
	return normalizeFull(text)
}

// normalizeFull is Normalize by its definition, for any text: the path of
// text the fast paths do not decide, and the reference they are tested
// against (normalizeRef).
func normalizeFull(text string) string {
	s := strings.ToLower(norm.NFKC.String(text))
	// Lower-casing can, for a handful of characters, leave text that is no
	// longer NFKC (for example U+0130 becomes i + combining dot); one more
	// pass makes the function idempotent.
	if !norm.NFKC.IsNormalString(s) {
		s = strings.ToLower(norm.NFKC.String(s))
	}
	if strings.Contains(s, "ς") {
		s = strings.ReplaceAll(s, "ς", "σ")
	}
	return s
}

// asciiKind says whether text is ASCII and whether it has upper case.
type asciiKind uint8

const (
	notASCII asciiKind = iota
	asciiLower
	asciiUpper
)

// The eight-byte tests of asciiCase and lowerASCII: a word of eight
// bytes is ASCII when x&asciiHigh is 0, and then (x+asciiFromA)
// &^ (x+asciiPastZ) & asciiHigh has the high bit of each byte 'A'–'Z'
// (no sum carries between bytes below 0x80).
const (
	asciiHigh  = 0x8080808080808080
	asciiFromA = 0x3F3F3F3F3F3F3F3F // + this sets the high bit from 'A' up
	asciiPastZ = 0x2525252525252525 // + this sets the high bit from 'Z'+1 up
)

// asciiCase classifies text eight bytes at a time.
func asciiCase(text string) asciiKind {
	const (
		high  = asciiHigh
		fromA = asciiFromA
		pastZ = asciiPastZ
	)
	var upper uint64
	i := 0
	for ; i+8 <= len(text); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(text[i : i+8]))
		if x&high != 0 {
			return notASCII
		}
		// No byte is ≥ 0x80, so the sums cannot carry between bytes.
		upper |= (x + fromA) &^ (x + pastZ)
	}
	for ; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			return notASCII
		}
		if 'A' <= c && c <= 'Z' {
			upper |= high
		}
	}
	if upper&high != 0 {
		return asciiUpper
	}
	return asciiLower
}

// lowerASCII is strings.ToLower for ASCII text (asciiCase(text) is not
// notASCII: its callers have just asked): the letters A–Z lowered eight
// bytes at a time into the result, without ToLower's own pass over text
// to find whether it is ASCII and has upper case, and its copy a byte at
// a time. TestPropLowerASCII holds it to ToLower.
func lowerASCII(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	var w [8]byte
	i := 0
	for ; i+8 <= len(text); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(text[i : i+8]))
		// 0x80 >> 2 is 0x20, the bit that lowers 'A'–'Z'.
		x |= ((x + asciiFromA) &^ (x + asciiPastZ) & asciiHigh) >> 2
		binary.LittleEndian.PutUint64(w[:], x)
		b.Write(w[:])
	}
	for ; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}
