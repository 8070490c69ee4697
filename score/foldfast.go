package score

import "unicode/utf8"

// Folding's fast path (docs/decisions/0221-fold-fast-path.md). The words of
// Latin-1 and Cyrillic text (й, ё, é, ü) are most of the non-ASCII words
// memory text holds, and their fold is a fixed map of one letter to one
// letter (ß to two): the decomposition of each is a base letter and one
// combining accent, which fold drops, and nothing is left to recompose.
// foldFast applies that map to a token made only of ASCII and the two-byte
// sequences of U+00C0–U+00FF and U+0400–U+045F, without a table search,
// a normalisation or, when nothing changes, an allocation; any other
// token takes foldFull. TestFoldFastEveryRune checks the map against
// foldFull on every code point it covers and TestFoldFastPairs on every
// pair of them; TestPropFoldFast compares the two on random text.

// foldFastRune returns the fold of r, a code point of U+00C0–U+00FF or
// U+0400–U+045F: to is what r becomes (0 when r stays), and ok is false
// for the code points the fast path does not cover (× and ÷, which are
// not letters).
func foldFastRune(r rune) (to rune, ok bool) {
	if r < 0x100 {
		if r == 0xD7 || r == 0xF7 {
			return 0, false
		}
		return rune(latin1Fold[r-0xC0]), true
	}
	switch r {
	case 0x0400, 0x0401: // Ѐ Ё
		return 0x0415, true // Е
	case 0x0403: // Ѓ
		return 0x0413, true // Г
	case 0x0407: // Ї
		return 0x0406, true // І
	case 0x040C: // Ќ
		return 0x041A, true // К
	case 0x040D, 0x0419: // Ѝ Й
		return 0x0418, true // И
	case 0x040E: // Ў
		return 0x0423, true // У
	case 0x0439, 0x045D: // й ѝ
		return 0x0438, true // и
	case 0x0450, 0x0451: // ѐ ё
		return 0x0435, true // е
	case 0x0453: // ѓ
		return 0x0433, true // г
	case 0x0457: // ї
		return 0x0456, true // і
	case 0x045C: // ќ
		return 0x043A, true // к
	case 0x045E: // ў
		return 0x0443, true // у
	}
	return 0, true
}

// latin1Fold is the fold of U+00C0…U+00FF: the ASCII letter an accented
// letter loses its accent to, 0 for a letter that stays (Æ Ð Ø Þ æ þ, ×
// and ÷), and 's' for ß, which becomes "ss".
var latin1Fold = [64]byte{
	'A', 'A', 'A', 'A', 'A', 'A', 0, 'C', 'E', 'E', 'E', 'E', 'I', 'I', 'I', 'I', // À…Ï
	0, 'N', 'O', 'O', 'O', 'O', 'O', 0, 0, 'U', 'U', 'U', 'U', 'Y', 0, 's', // Ð…ß
	'a', 'a', 'a', 'a', 'a', 'a', 0, 'c', 'e', 'e', 'e', 'e', 'i', 'i', 'i', 'i', // à…ï
	'd', 'n', 'o', 'o', 'o', 'o', 'o', 0, 'o', 'u', 'u', 'u', 'u', 'y', 0, 'y', // ð…ÿ
}

// fastFoldAt decodes the code point at tok[i] when it is one foldFast
// covers: size is 1 for ASCII, 2 for the two-byte ranges, 0 for anything
// else.
func fastFoldAt(tok string, i int) (r rune, size int) {
	c := tok[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	if i+1 >= len(tok) {
		return 0, 0
	}
	c1 := tok[i+1]
	if c1&0xC0 != 0x80 {
		return 0, 0
	}
	switch {
	case c == 0xC3: // U+00C0…U+00FF
		return 0xC0 + rune(c1&0x3F), 2
	case c == 0xD0: // U+0400…U+043F
		return 0x400 + rune(c1&0x3F), 2
	case c == 0xD1 && c1 < 0xA0: // U+0440…U+045F
		return 0x440 + rune(c1&0x3F), 2
	}
	return 0, 0
}

// Folding letters of U+0400–U+043F and U+0440–U+045F, as bits of the
// second byte's low six bits (the code point less 0x400 or 0x440):
// Ѐ Ё Ѓ Ї Ќ Ѝ Ў Й й, and ѐ ё ѓ ї ќ ѝ ў.
const (
	foldsD0 = 1<<0x00 | 1<<0x01 | 1<<0x03 | 1<<0x07 | 1<<0x0C | 1<<0x0D | 1<<0x0E | 1<<0x19 | 1<<0x39
	foldsD1 = 1<<0x10 | 1<<0x11 | 1<<0x13 | 1<<0x17 | 1<<0x1C | 1<<0x1D | 1<<0x1E
)

// needsFoldFast is needsFold for a token foldFast covers; ok is false for
// any other token. It reads the two bytes of each letter directly: the
// loop every non-ASCII word token of a cold query goes through.
func needsFoldFast(tok string) (needs, ok bool) {
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c < utf8.RuneSelf {
			continue
		}
		if i+1 >= len(tok) || tok[i+1]&0xC0 != 0x80 {
			return false, false
		}
		low := tok[i+1] & 0x3F
		switch c {
		case 0xC3: // U+00C0…U+00FF
			if low == 0x17 || low == 0x37 {
				return false, false // × ÷
			}
			needs = needs || latin1Fold[low] != 0
		case 0xD0: // U+0400…U+043F
			needs = needs || foldsD0&(uint64(1)<<low) != 0
		case 0xD1: // U+0440…U+045F
			if low >= 0x20 {
				return false, false
			}
			needs = needs || foldsD1&(uint64(1)<<low) != 0
		default:
			return false, false
		}
		i++
	}
	return needs, true
}

// foldFast is fold for a token made only of ASCII, U+00C0–U+00FF and
// U+0400–U+045F; ok is false for any other token. A token that folding
// leaves alone is returned as it is.
func foldFast(tok string) (string, bool) {
	var a [64]byte
	b, changed, _, ok := appendFoldFast(a[:0], tok, false)
	switch {
	case !ok:
		return "", false
	case !changed:
		return tok, true
	}
	return string(b), true
}

// appendFoldFast appends to dst the fold of tok (see foldFast), or with
// german its German transliteration (germanFold: ä ö ü become ae oe ue
// first), and reports whether that differs from tok and whether tok holds
// ä, ö or ü (what hasUmlaut reports, found on the same walk); ok is false,
// and the rest is of no use, for a token foldFast does not cover. The
// scorer folds a field token's keys into a buffer of its own this way,
// without building a string per key.
func appendFoldFast(dst []byte, tok string, german bool) (out []byte, changed, umlaut, ok bool) {
	for i := 0; i < len(tok); {
		r, size := fastFoldAt(tok, i)
		if size == 0 {
			return dst, false, false, false
		}
		if size == 1 {
			dst = append(dst, byte(r))
			i++
			continue
		}
		to, ok := foldFastRune(r)
		if !ok {
			return dst, false, false, false
		}
		isUmlaut := r == 'ä' || r == 'ö' || r == 'ü'
		umlaut = umlaut || isUmlaut
		switch {
		case german && isUmlaut:
			dst = append(dst, byte(to), 'e')
		case to == 's' && r == 'ß':
			dst = append(dst, "ss"...)
		case to != 0:
			dst = utf8.AppendRune(dst, to)
		default:
			dst = append(dst, tok[i:i+size]...)
			i += size
			continue
		}
		changed = true
		i += size
	}
	return dst, changed, umlaut, true
}

// foldHeadFast returns the head of fold(tok) (see headBit: its first
// three code points), head[:n], for a token foldFast covers, without
// building the fold; ok is false for any other token, or one whose fold
// is shorter than three bytes.
func foldHeadFast(tok string) (head [6]byte, n int, ok bool) {
	runes := 0
	var enc [4]byte
	for i := 0; i < len(tok) && runes < 3; {
		r, size := fastFoldAt(tok, i)
		if size == 0 {
			return head, 0, false
		}
		var to rune
		if size == 2 {
			var ok bool
			if to, ok = foldFastRune(r); !ok {
				return head, 0, false
			}
		}
		switch {
		case to == 's' && r == 'ß':
			n += copy(head[n:], "ss"[:min(2, 3-runes)])
			runes += min(2, 3-runes)
		case to != 0:
			n += copy(head[n:], enc[:utf8.EncodeRune(enc[:], to)])
			runes++
		default:
			n += copy(head[n:], tok[i:i+size])
			runes++
		}
		i += size
	}
	return head, n, n >= 3
}
