package score

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// fastKind says how the fast normalisation path treats a code point.
type fastKind uint8

const (
	// fastNone: not handled; the text goes through the full NFKC path.
	fastNone fastKind = iota
	// fastStable: NFKC quick check Yes, its own lower case, never composes
	// with a neighbour; it stays as it is.
	fastStable
	// fastUpper: NFKC quick check Yes, and its lower case (unicode.ToLower,
	// one code point) is fastStable.
	fastUpper
	// fastWide: a full-width ASCII form or the ideographic space, whose
	// NFKC is one ASCII character (wideASCII).
	fastWide
	// fastThaiAm: the Thai vowel ำ (U+0E33), whose NFKC is ํ า
	// (U+0E4D U+0E32, thaiAmNFKC), two fastStable code points of
	// combining class 0: real Thai writes it in every other sentence.
	fastThaiAm
)

// thaiAm and thaiAmNFKC are ำ and its NFKC, in UTF-8.
const (
	thaiAm     = "\u0e33"
	thaiAmNFKC = "\u0e4d\u0e32"
)

// fastRune classifies r for normaliseFast and returns its canonical
// combining class (non-zero only for the Thai marks that have one). The
// ranges are the scripts memory text is mostly written in: Latin-1,
// Cyrillic, Thai, CJK punctuation, kana, CJK ideographs, Hangul
// syllables, full-width forms. TestFastRuneTable checks every code point
// it claims against x/text's NFKC and unicode.ToLower.
func fastRune(r rune) (fastKind, uint8) {
	switch {
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			return fastUpper, 0
		}
		return fastStable, 0
	case r < 0xC0:
		return fastNone, 0 // Latin-1 symbols: ª ² ¼ and the no-break space decompose
	case r <= 0xDE && r != 0xD7:
		return fastUpper, 0 // À…Þ (× is a symbol)
	case r <= 0xFF:
		return fastStable, 0 // ß à…ÿ ×
	case 0x0400 <= r && r <= 0x042F:
		return fastUpper, 0 // Ѐ…Я
	case 0x0430 <= r && r <= 0x045F:
		return fastStable, 0 // а…џ
	case 0x0E01 <= r && r <= 0x0E5B:
		return thaiRune(r)
	case 0x3001 <= r && r <= 0x3003, // 、。〃
		0x3041 <= r && r <= 0x3096, // hiragana
		0x309D <= r && r <= 0x309E, // ゝゞ
		0x30A0 <= r && r <= 0x30FE, // katakana, ・ ー ヽヾ
		0x3400 <= r && r <= 0x4DBF, // CJK extension A
		0x4E00 <= r && r <= 0x9FFF, // CJK unified ideographs
		0xAC00 <= r && r <= 0xD7A3: // Hangul syllables
		return fastStable, 0
	case r == 0x3000, 0xFF01 <= r && r <= 0xFF5E:
		return fastWide, 0
	}
	return fastNone, 0
}

// thaiRune is fastRune for the Thai block: unassigned code points are
// not handled, ำ (U+0E33) is replaced by its decomposition, and the vowel
// and tone marks keep their combining classes.
func thaiRune(r rune) (fastKind, uint8) {
	switch {
	case r == 0x0E33:
		return fastThaiAm, 0
	case 0x0E3B <= r && r <= 0x0E3E:
		return fastNone, 0
	case r == 0x0E38 || r == 0x0E39:
		return fastStable, 103
	case r == 0x0E3A:
		return fastStable, 9
	case 0x0E48 <= r && r <= 0x0E4B:
		return fastStable, 107
	}
	return fastStable, 0
}

// wideASCII is the NFKC of a fastWide code point.
func wideASCII(r rune) byte {
	if r == 0x3000 {
		return ' '
	}
	return byte(r - 0xFEE0)
}

// normalizeFast is Normalize for text made only of code points fastRune
// handles, in canonical order, with no mark (combining class above 0)
// after a mark of its class; ok is false for any other text, which must
// take the full path. Such text is NFKC once its full-width forms are
// mapped, and stays NFKC once lower-cased, so one pass decides and text
// that is already normalised (most non-ASCII memory text) is returned as
// it is, without a copy.
//
// Runs of marks: x/text's NFKC follows the Stream-Safe Text Format (UAX
// #15), inserting U+034F after 30 non-starters in a row and counting the
// mark a character before the run decomposes to (à, が), so a run of 30
// marks can be broken. The fast paths (this one and the raw pass's
// scanRawThai) do not count: they hand over a mark after a mark of its
// class or above. Their marks have three classes (9, 103, 107;
// TestLongMarkRuns), so a run of four or more in canonical order holds
// such a pair, and every path writes x/text's form.
func normalizeFast(text string) (string, bool) {
	// b is the rebuilt text, started (built) at the first code point
	// that changes; until then the text is its own normal form. Once
	// built, text[from:i] is unchanged text not yet copied to b: it is
	// copied in one piece when a changed code point or the end comes.
	var b strings.Builder
	built := false
	from := 0
	change := func(i, size int) {
		if !built {
			built = true
			b.Grow(len(text))
		}
		b.WriteString(text[from:i])
		from = i + size
	}
	var last uint8 // combining class of the previous code point
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				change(i, 1)
				b.WriteByte(c + 'a' - 'A')
			}
			last = 0
			i++
			continue
		}
		// Lower-case Cyrillic а…џ (U+0430–U+045F) and Latin-1 ß…ÿ
		// (U+00DF–U+00FF, with × and ÷): stable, combining class 0, by
		// their two bytes (TestStableTwoByteLetters).
		if i+1 < len(text) {
			if c1 := text[i+1]; c == 0xD0 && 0xB0 <= c1 && c1 <= 0xBF || c == 0xD1 && 0x80 <= c1 && c1 <= 0x9F ||
				c == 0xC3 && (0x9F <= c1 && c1 <= 0xBF || c1 == 0x97) {
				last = 0
				i += 2
				continue
			}
		}
		// Kana and the Hangul syllables outside the lead bytes below:
		// stable, combining class 0, by their three bytes
		// (TestStableKanaHangul).
		if (c == 0xE3 || c == 0xEA || c == 0xED) && i+2 < len(text) && stableKanaHangul(c, text[i+1], text[i+2]) {
			last = 0
			i += 3
			continue
		}
		// Thai letters, vowels and marks of combining class 0: stable,
		// by their three bytes (TestStableThai).
		if c == 0xE0 && i+2 < len(text) && stableThai(text[i+1], text[i+2]) {
			last = 0
			i += 3
			continue
		}
		// CJK ideographs U+5000–U+9FFF and Hangul syllables
		// U+B000–U+CFFF: stable, combining class 0, decided by the lead
		// byte (TestStableLeadBytes).
		if (0xE5 <= c && c <= 0xE9 || c == 0xEB || c == 0xEC) && i+2 < len(text) &&
			text[i+1]&0xC0 == 0x80 && text[i+2]&0xC0 == 0x80 {
			last = 0
			i += 3
			continue
		}
		r, size := decodeRune(text, i)
		kind, ccc := fastRune(r)
		if kind == fastNone {
			return "", false // also invalid UTF-8: RuneError is not handled
		}
		if ccc != 0 && last >= ccc {
			return "", false // out of canonical order, or a run (see above)
		}
		last = ccc
		switch kind {
		case fastUpper:
			change(i, size)
			b.WriteRune(unicode.ToLower(r))
		case fastWide:
			change(i, size)
			c := wideASCII(r)
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
		case fastThaiAm:
			change(i, size)
			b.WriteString(thaiAmNFKC)
		}
		i += size
	}
	if !built {
		return text, true
	}
	b.WriteString(text[from:])
	return b.String(), true
}

// stableThai reports whether E0 c1 c2 is a Thai code point that
// normalizeFast holds stable with combining class 0: U+0E01–U+0E32,
// U+0E34–U+0E37, U+0E40–U+0E47, U+0E4C–U+0E5B.
func stableThai(c1, c2 byte) bool {
	switch c1 {
	case 0xB8: // U+0E00…U+0E3F
		return 0x81 <= c2 && c2 <= 0xB2 || 0xB4 <= c2 && c2 <= 0xB7
	case 0xB9: // U+0E40…U+0E7F
		return 0x80 <= c2 && c2 <= 0x87 || 0x8C <= c2 && c2 <= 0x9B
	}
	return false
}

// stableKanaHangul reports whether c c1 c2 is hiragana U+3041–U+3096,
// katakana U+30A0–U+30FE, or a Hangul syllable of U+AC00–U+AFFF or
// U+D000–U+D7A3: code points normalizeFast holds stable with combining
// class 0 and classify files as CJK.
func stableKanaHangul(c, c1, c2 byte) bool {
	if c2&0xC0 != 0x80 {
		return false
	}
	switch c {
	case 0xE3: // U+3000…U+3FFF
		return c1 == 0x81 && c2 >= 0x81 || c1 == 0x82 && (c2 <= 0x96 || c2 >= 0xA0) || c1 == 0x83 && c2 <= 0xBE
	case 0xEA: // U+A000…U+AFFF
		return 0xB0 <= c1 && c1 <= 0xBF
	case 0xED: // U+D000…U+DFFF
		return 0x80 <= c1 && c1 <= 0x9D || c1 == 0x9E && c2 <= 0xA3
	}
	return false
}

// decodeRune is utf8.DecodeRuneInString(s[i:]) with the two-byte
// sequences (Latin-1 and Extended, Greek, Cyrillic, Hebrew, Arabic) and
// the three-byte ones (the rest of the BMP: CJK, kana, Hangul, Thai)
// decoded inline; TestDecodeRuneEqualsUTF8 compares it on every two- and
// three-byte input.
func decodeRune(s string, i int) (rune, int) {
	c := s[i]
	if c >= 0xE0 && c < 0xF0 && i+2 < len(s) {
		c1, c2 := s[i+1], s[i+2]
		if c1&0xC0 == 0x80 && c2&0xC0 == 0x80 {
			r := rune(c&0x0F)<<12 | rune(c1&0x3F)<<6 | rune(c2&0x3F)
			if r >= 0x800 && (r < 0xD800 || r > 0xDFFF) {
				return r, 3
			}
		}
	} else if c >= 0xC2 && c < 0xE0 && i+1 < len(s) {
		if c1 := s[i+1]; c1&0xC0 == 0x80 {
			return rune(c&0x1F)<<6 | rune(c1&0x3F), 2
		}
	}
	return utf8.DecodeRuneInString(s[i:])
}
