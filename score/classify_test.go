package score

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
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

// emitBigramsRef is emitBigrams by decoding every code point.
func emitBigramsRef(run string, emit func(string)) {
	_, first := utf8.DecodeRuneInString(run)
	a, b := 0, first
	for b < len(run) {
		_, size := utf8.DecodeRuneInString(run[b:])
		emit(run[a : b+size])
		a, b = b, b+size
	}
}

// TestPropEmitBigramsEqualsRef: the lead-byte stepping of emitBigrams gives
// the bigrams decoding gives, on CJK runs of code points of every length.
func TestPropEmitBigramsEqualsRef(t *testing.T) {
	alpha := []rune{0xE9, 0x0430, 0x3042, 0x30FC, 0x4E00, 0x9FFF, 0xAC00, 0x20000, 0x2A6DF, 0x3005}
	rapid.Check(t, func(t *rapid.T) {
		rs := rapid.SliceOfN(rapid.SampledFrom(alpha), 1, 12).Draw(t, "runes")
		run := string(rs)
		var got, want []string
		emitBigrams(run, func(s string) { got = append(got, s) })
		emitBigramsRef(run, func(s string) { want = append(want, s) })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("emitBigrams(%q) (-ref +got):\n%s", run, diff)
		}
	})
}

// TestIsMarkEqualsUnicode checks isMark against unicode.IsMark on every
// code point.
func TestIsMarkEqualsUnicode(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := isMark(r), unicode.IsMark(r); got != want {
			t.Fatalf("isMark(%U) = %v, want %v", r, got, want)
		}
	}
}

// TestDecodeSEA compares decodeSEA with the utf8 package on every
// three-byte sequence that starts E0, alone and followed by text.
func TestDecodeSEA(t *testing.T) {
	for c1 := range 256 {
		for c2 := range 256 {
			seq := string([]byte{0xE0, byte(c1), byte(c2)})
			for _, s := range []string{seq, seq + "x", seq[:2]} {
				r, n := decodeSEA(s, 0)
				if wr, wn := utf8.DecodeRuneInString(s); r != wr || n != wn {
					t.Fatalf("decodeSEA(%+q) = %U, %d; utf8 says %U, %d", s, r, n, wr, wn)
				}
			}
		}
	}
}

// nextClusterRef is nextCluster as first written: the utf8 package's
// decoding and unicode.IsMark, each code point decoded where it is read.
func nextClusterRef(run string, i int) int {
	skip := func(i int) int {
		for i < len(run) {
			r, size := utf8.DecodeRuneInString(run[i:])
			if !unicode.IsMark(r) {
				break
			}
			i += size
		}
		return i
	}
	r, size := utf8.DecodeRuneInString(run[i:])
	i += size
	for isLeadingVowel(r) && i < len(run) {
		r, size = utf8.DecodeRuneInString(run[i:])
		i += size
	}
	i = skip(i)
	for i < len(run) {
		r, size := utf8.DecodeRuneInString(run[i:])
		if !isClosingVowel(r) {
			break
		}
		i = skip(i + size)
	}
	return i
}

// TestPropNextClusterEqualsRef: on runs of Thai and Lao letters, leading
// and closing vowels, marks, other marks and invalid bytes, nextCluster
// ends every cluster where the reference does.
func TestPropNextClusterEqualsRef(t *testing.T) {
	alphabet := []string{"ก", "ข", "เ", "แ", "ไ", "ะ", "า", "ำ", "ั", "ิ", "ุ", "่", "้", "์", "็",
		"ກ", "ເ", "າ", "ັ", "່", "\u0301", "a", "\xe0\xb8", "\xff"}
	rapid.Check(t, func(t *rapid.T) {
		run := strings.Join(rapid.SliceOfN(rapid.SampledFrom(alphabet), 1, 16).Draw(t, "run"), "")
		for i := 0; i < len(run); {
			got, want := nextCluster(run, i), nextClusterRef(run, i)
			if got != want {
				t.Fatalf("nextCluster(%+q, %d) = %d, want %d", run, i, got, want)
			}
			i = want
		}
	})
}
