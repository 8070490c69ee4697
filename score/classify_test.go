package score

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// classifyRef is classify as the tokenizer defines it, by the Unicode
// tables alone (classify adds range checks for the common blocks).
func classifyRef(r rune) runeClass {
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
		if unicode.IsNumber(r) {
			return classWord
		}
		return classSep
	case unicode.In(r, unicode.L, unicode.M, unicode.N):
		return classWord
	}
	return classSep
}

// TestClassifyEqualsRef checks classify against the table definition on
// every code point.
func TestClassifyEqualsRef(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := classify(r), classifyRef(r); got != want {
			t.Fatalf("classify(%U) = %d, want %d", r, got, want)
		}
	}
}
