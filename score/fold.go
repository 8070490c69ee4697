package score

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Folding (docs/decisions/0207-folding-stems.md). A word typed without its
// accents ("cafe", "Lodz", "Malmo", "Strasse", "Ισαρ") should still find the
// note that writes them ("café", "Łódź", "Malmö", "Straße", "Ισάρ"), and
// the reverse. A field token is therefore also filed under a secondary,
// folded key, and a query token also looks for its folded form; a match
// through the folded key weighs less than an exact one (foldNumerator).
//
// fold maps a normalised word token to its folded form:
//   - canonical decomposition, then every nonspacing mark of the Inherited
//     script is dropped: the combining accents of Latin, Greek (tonos,
//     dialytika) and Cyrillic, Vietnamese tone marks, and the Arabic
//     harakat, shadda, sukun, maddah and hamza above and below (so أ إ آ
//     become ا, ؤ becomes و and ئ becomes ي);
//   - the letters that do not decompose are replaced: ł → l, ø → o,
//     đ → d, ð → d, ı → i, ß → ss, ħ → h, ŀ → l, and the Arabic alef wasla
//     ٱ → ا and alef maqsura ى → ي;
//   - the Arabic tatweel ـ (a stretching stroke) and the Hebrew points and
//     cantillation marks (niqqud) are dropped;
//   - the result is recomposed (NFC).
//
// Marks of other scripts (Devanagari, Thai, …) carry vowels and are kept,
// and fold is applied only to word tokens (never to CJK or Thai-like
// n-grams). fold is idempotent, and ASCII is its own fold.
func fold(tok string) string {
	if isASCII(tok) {
		return tok
	}
	if f, ok := foldFast(tok); ok {
		return f
	}
	return foldFull(tok)
}

// foldFull is fold by its definition, for any text: the path of tokens
// foldFast does not handle, and the reference foldFast is tested against.
func foldFull(tok string) string {
	if !needsFoldFull(tok) {
		return tok
	}
	d := norm.NFD.String(tok)
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if dropInFold(r) {
			continue
		}
		if s, ok := foldLetter(r); ok {
			b.WriteString(s)
		} else {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// needsFold reports whether fold could change tok: it holds a character
// that decomposes, a mark, or one of the replaced letters.
func needsFold(tok string) bool {
	if needs, ok := needsFoldFast(tok); ok {
		return needs
	}
	return needsFoldFull(tok)
}

// needsFoldFull is needsFold by its definition (see foldFull).
func needsFoldFull(tok string) bool {
	for i := 0; i < len(tok); {
		r, size := utf8.DecodeRuneInString(tok[i:])
		i += size
		if r < utf8.RuneSelf {
			continue
		}
		if dropInFold(r) {
			return true
		}
		if _, ok := foldLetter(r); ok {
			return true
		}
		if norm.NFD.PropertiesString(tok[i-size:]).Decomposition() != nil {
			return true
		}
	}
	return false
}

// dropInFold reports the characters fold removes.
func dropInFold(r rune) bool {
	switch {
	case r < 0x300:
		return false
	case r == 0x0640: // Arabic tatweel
		return true
	case r == 0x3099 || r == 0x309A: // kana voicing marks: part of the letter
		return false
	case 0x0591 <= r && r <= 0x05C7: // Hebrew points and cantillation
		return unicode.Is(unicode.Mn, r)
	}
	return unicode.Is(unicode.Mn, r) && unicode.Is(unicode.Inherited, r)
}

// foldLetter replaces the letters that have no decomposition.
func foldLetter(r rune) (string, bool) {
	switch r {
	case 'ł', 'ŀ':
		return "l", true
	case 'ø':
		return "o", true
	case 'đ', 'ð':
		return "d", true
	case 'ı':
		return "i", true
	case 'ß':
		return "ss", true
	case 'ħ':
		return "h", true
	case 'ٱ': // alef wasla
		return "ا", true
	case 'ى': // alef maqsura
		return "ي", true
	}
	return "", false
}

// germanFold is the transliteration of a word token with an umlaut, ä ö ü
// written ae oe ue as German does without them ("Mueller" for "Müller",
// "Luedenscheid" for "Lüdenscheid"), then folded (fold); "" when tok
// holds no umlaut. It is a second folded key beside fold's, which drops
// the dots instead ("Muller"): both spellings are typed.
func germanFold(tok string) string {
	if !hasUmlaut(tok) {
		return ""
	}
	var b strings.Builder
	b.Grow(len(tok) + 4)
	for _, r := range tok {
		switch r {
		case 'ä':
			b.WriteString("ae")
		case 'ö':
			b.WriteString("oe")
		case 'ü':
			b.WriteString("ue")
		default:
			b.WriteRune(r)
		}
	}
	return fold(b.String())
}

// hasUmlaut reports whether a normalised token holds ä, ö or ü (C3 A4,
// C3 B6, C3 BC in UTF-8).
func hasUmlaut(tok string) bool {
	for i := 0; i+1 < len(tok); i++ {
		if tok[i] == 0xC3 {
			if c := tok[i+1]; c == 0xA4 || c == 0xB6 || c == 0xBC {
				return true
			}
		}
	}
	return false
}
