package score

import (
	"unicode"
	"unicode/utf8"
)

// minWordRunes is the shortest whole token: shorter runs ("a", "is", "of")
// match too much to be evidence of relevance.
const minWordRunes = 3

// runeClass says how a character takes part in tokens.
type runeClass uint8

const (
	// classSep ends any run and is never part of a token.
	classSep runeClass = iota
	// classWord is a letter, mark or digit of a script that separates words
	// with spaces or punctuation; runs of them are whole tokens.
	classWord
	// classCJK is Han, Hiragana, Katakana, Hangul, or a kana-run character
	// that Go's Script tables file under Common or Inherited; runs of them
	// give code-point bigrams.
	classCJK
	// classSEA is a letter or mark of a script written without word
	// separators outside CJK (Thai, Lao, Khmer, Myanmar); runs give bigrams
	// of clusters, and never join a CJK run.
	classSEA
)

// kanaRunMarks are characters whose Script is Common or Inherited (Go's
// tables use Script, not Script_Extensions) but which stand inside Japanese
// words: the prolonged sound mark, the middle dot, the voiced and
// semi-voiced sound marks (spacing and combining), the double hyphen and the
// iteration marks that are not already Han or kana.
func isKanaRunMark(r rune) bool {
	switch r {
	case 0x30FC, // ー prolonged sound mark
		0x30FB,         // ・ katakana middle dot
		0x309B, 0x309C, // ゛゜ spacing sound marks
		0x3099, 0x309A, // combining sound marks
		0x30A0,                                 // ゠ double hyphen
		0x3006,                                 // 〆 ideographic closing mark
		0x3031, 0x3032, 0x3033, 0x3034, 0x3035: // vertical kana repeat marks
		return true
	}
	return false
}

func classify(r rune) runeClass {
	switch {
	case r < utf8.RuneSelf:
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' {
			return classWord
		}
		return classSep
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || isKanaRunMark(r):
		return classCJK
	case unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
		if unicode.In(r, unicode.L, unicode.M) {
			return classSEA
		}
		// Digits and punctuation of these scripts separate like any other.
		if unicode.IsNumber(r) {
			return classWord
		}
		return classSep
	case unicode.In(r, unicode.L, unicode.M, unicode.N):
		return classWord
	}
	return classSep
}

// Tokens returns the tokens of text in order of appearance, repeats
// included: Normalize first, then
//   - every run of letters, marks and digits without a CJK character and at
//     least three characters long is one token;
//   - every run of Han, Hiragana, Katakana and Hangul (with the kana-run
//     marks ー ・ ゛ ゜ and the iteration marks inside it) gives its
//     code-point bigrams; one isolated character gives nothing;
//   - runs of Thai, Lao, Khmer and Myanmar, which do not separate words,
//     give bigrams of clusters (a consonant with its marks and the vowels
//     written around it, see nextCluster) rather than one token per
//     phrase; a single cluster gives nothing.
//
// A CJK character ends a Latin run: "abc漢字" is "abc", "漢字".
func Tokens(text string) []string {
	return AppendTokens(nil, Normalize(text))
}

// AppendTokens appends the tokens of already normalised text to dst and
// returns the extended slice. Tokens are substrings of normalized, so the
// only allocation is dst's growth.
func AppendTokens(dst []string, normalized string) []string {
	forEachToken(normalized, func(tok string) { dst = append(dst, tok) })
	return dst
}

// asciiClass classifies the ASCII bytes, the common case of the hot loop.
var asciiClass = func() (t [utf8.RuneSelf]runeClass) {
	for c := range t {
		t[c] = classify(rune(c))
	}
	return t
}()

// classAt classifies the rune at s[i] and returns its size.
func classAt(s string, i int) (runeClass, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return classify(r), size
}

// forEachToken calls emit for every token of normalised text, in order.
func forEachToken(s string, emit func(string)) {
	i := 0
	for i < len(s) {
		c, size := classAt(s, i)
		if c == classSep {
			i += size
			continue
		}
		start := i
		n := 0
		for i < len(s) {
			// ASCII letters and digits run without decoding.
			if c == classWord && s[i] < utf8.RuneSelf {
				if asciiClass[s[i]] != classWord {
					break
				}
				i++
				n++
				continue
			}
			rc, size := classAt(s, i)
			if rc != c {
				break
			}
			i += size
			n++
		}
		run := s[start:i]
		switch c {
		case classWord:
			if n >= minWordRunes {
				emit(run)
			}
		case classCJK:
			emitBigrams(run, emit)
		case classSEA:
			emitClusterBigrams(run, emit)
		}
	}
}

// emitBigrams emits every pair of adjacent code points of run.
func emitBigrams(run string, emit func(string)) {
	_, first := utf8.DecodeRuneInString(run)
	a := 0
	b := first
	for b < len(run) {
		_, size := utf8.DecodeRuneInString(run[b:])
		emit(run[a : b+size])
		a = b
		b += size
	}
}

// emitClusterBigrams emits every pair of adjacent clusters of run (see
// nextCluster). Thai, Lao, Khmer and Myanmar write vowels and tones as
// marks and letters around a consonant; pairing bare code points would make
// units such as "consonant + tone mark" that half the language shares, so
// unrelated text would match.
func emitClusterBigrams(run string, emit func(string)) {
	a := 0                   // start of the first cluster of the pair
	b := nextCluster(run, 0) // start of the second
	for b < len(run) {
		c := nextCluster(run, b)
		emit(run[a:c])
		a, b = b, c
	}
}

// nextCluster returns the end of the cluster that starts at i: a leading
// vowel (Thai and Lao write เ แ โ ใ ไ before the consonant they follow in
// speech), a character, its combining marks, and the vowels ะ า ำ that
// close a syllable, with their marks. This is a light form of the Thai
// Character Cluster rules: enough that "กาแฟ" is the clusters กา and แฟ, not
// four letters whose pairs (กา, าแ, แฟ) half the language shares.
func nextCluster(run string, i int) int {
	r, size := utf8.DecodeRuneInString(run[i:])
	i += size
	for isLeadingVowel(r) && i < len(run) {
		r, size = utf8.DecodeRuneInString(run[i:])
		i += size
	}
	i = skipMarks(run, i)
	for i < len(run) {
		r, size := utf8.DecodeRuneInString(run[i:])
		if !isClosingVowel(r) {
			break
		}
		i = skipMarks(run, i+size)
	}
	return i
}

func skipMarks(run string, i int) int {
	for i < len(run) {
		r, size := utf8.DecodeRuneInString(run[i:])
		if !unicode.IsMark(r) {
			break
		}
		i += size
	}
	return i
}

// isLeadingVowel reports the Thai and Lao vowels written before their
// consonant.
func isLeadingVowel(r rune) bool {
	return 0x0E40 <= r && r <= 0x0E44 || 0x0EC0 <= r && r <= 0x0EC4
}

// isClosingVowel reports the Thai and Lao vowels ะ า ำ (and Lao ະ າ ຳ),
// which are letters, not marks, but end the syllable before them.
func isClosingVowel(r rune) bool {
	switch r {
	case 0x0E30, 0x0E32, 0x0E33, 0x0EB0, 0x0EB2, 0x0EB3:
		return true
	}
	return false
}
