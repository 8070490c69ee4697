package score

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
	"golang.org/x/text/unicode/norm"
	"pgregory.net/rapid"
)

// normalizeRef is Normalize as it was before the fast path of decision
// 0220: the ASCII check, then the full path. The fast path is tested
// against it.
func normalizeRef(text string) string {
	switch asciiCase(text) {
	case asciiLower:
		return text
	case asciiUpper:
		return strings.ToLower(text)
	}
	return normalizeFull(text)
}

// TestFastRuneTable checks every code point fastRune claims against x/text
// and the unicode package: a stable one is NFKC on its own, its own lower
// case, has the combining class claimed and, as a starter, composes with
// nothing before it; an upper one is NFKC and lower-cases to a stable one;
// a wide one is NFKC-mapped to its ASCII character.
func TestFastRuneTable(t *testing.T) {
	bad := 0
	for r := rune(0); r <= unicode.MaxRune && bad < 10; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		kind, ccc := fastRune(r)
		s := string(r)
		p := norm.NFKC.PropertiesString(s)
		var problem string
		switch kind {
		case fastNone:
			continue
		case fastStable:
			switch {
			case !norm.NFKC.IsNormalString(s):
				problem = "not NFKC"
			case unicode.ToLower(r) != r || strings.ToLower(s) != s:
				problem = "not lower case"
			case p.CCC() != ccc:
				problem = "combining class differs"
			case ccc == 0 && !p.BoundaryBefore():
				problem = "may compose with what precedes it"
			case r == 'ς':
				problem = "final sigma"
			}
		case fastUpper:
			l := unicode.ToLower(r)
			lk, lccc := fastRune(l)
			switch {
			case !norm.NFKC.IsNormalString(s):
				problem = "not NFKC"
			case l == r || lk != fastStable || lccc != 0 || strings.ToLower(s) != string(l):
				problem = "lower case not a stable code point"
			case p.CCC() != 0 || !p.BoundaryBefore():
				problem = "not a plain starter"
			}
		case fastWide:
			if got := norm.NFKC.String(s); got != string(rune(wideASCII(r))) {
				problem = "NFKC is " + got
			}
		case fastThaiAm:
			got := norm.NFKC.String(s)
			for _, d := range got {
				if k, dccc := fastRune(d); k != fastStable || dccc != 0 {
					problem = "decomposition not stable starters"
				}
			}
			switch {
			case got != thaiAmNFKC || s != thaiAm:
				problem = "NFKC is " + got
			case p.CCC() != 0 || !p.BoundaryBefore():
				problem = "not a plain starter"
			}
		}
		if problem != "" {
			t.Errorf("fastRune(%U) = %d, %d: %s", r, kind, ccc, problem)
			bad++
		}
	}
}

// fastAlphabet is the code points the differential tests draw from: the
// edges of every fast range, a sample inside them, and code points the
// fast path must hand to the full path (combining marks, compatibility
// forms, final sigma, İ, invalid bytes).
func fastAlphabet() []string {
	var out []string
	for _, r := range []rune{
		'a', 'Z', '_', ' ', 0xBF, 0xC0, 0xC9, 0xD7, 0xDE, 0xDF, 0xE9, 0xFF, 0x100, 0x130,
		0x3C2, 0x3A3, 0x3C3, 0x3FF, 0x400, 0x419, 0x42F, 0x430, 0x439, 0x45F, 0x460,
		0xE00, 0xE01, 0xE31, 0xE32, 0xE33, 0xE34, 0xE38, 0xE39, 0xE3A, 0xE3F, 0xE40, 0xE48, 0xE4B, 0xE4C, 0xE50, 0xE5B, 0xE5C,
		0x300, 0x301, 0x308, 0x3000, 0x3001, 0x3003, 0x3004, 0x3005, 0x3040, 0x3041, 0x304B, 0x3096, 0x3099, 0x309A, 0x309B, 0x309D, 0x309F,
		0x30A0, 0x30A1, 0x30AB, 0x30BB, 0x30FB, 0x30FC, 0x30FE, 0x30FF, 0x3400, 0x4DBF, 0x4E00, 0x6F22, 0x9FFF,
		0xAC00, 0xAC01, 0xD7A3, 0x1100, 0x1161, 0x11A8, 0xF900, 0xFF01, 0xFF0C, 0xFF21, 0xFF41, 0xFF5E, 0xFF5F, 0xFF76, 0xFF9E, 0xFB01,
	} {
		out = append(out, string(r))
	}
	// invalid UTF-8: a stray byte, a cut sequence, an overlong form, a
	// surrogate
	return append(out, "\xff", "\xe3\x81", "\xe0\x81\x81", "\xed\xa0\x80", "\x80")
}

// TestPropNormalizeFastEqualsRef: Normalize with its fast path gives what
// the full NFKC path gives, on any text over the fast alphabet.
func TestPropNormalizeFastEqualsRef(t *testing.T) {
	alpha := fastAlphabet()
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(alpha), 0, 24).Draw(t, "parts")
		s := strings.Join(parts, "")
		if got, want := Normalize(s), normalizeRef(s); got != want {
			t.Fatalf("Normalize(%+q) = %+q, want %+q", s, got, want)
		}
	})
}

// TestNormalizeFastPairs: every fast code point before and after every
// code point of the alphabet normalises as the full path does (the
// composition and reordering cases are pairs).
func TestNormalizeFastPairs(t *testing.T) {
	alpha := fastAlphabet()
	for r := rune(0x80); r <= 0xFFFF; r++ {
		if k, _ := fastRune(r); k == fastNone {
			continue
		}
		if r >= 0x3400 && r%61 != 0 && (r <= 0x9FFF || r >= 0xAC00) {
			continue // a sample of the large ideograph and Hangul blocks
		}
		for _, a := range alpha {
			for _, s := range []string{string(r) + a, a + string(r)} {
				if got, want := Normalize(s), normalizeRef(s); got != want {
					t.Fatalf("Normalize(%+q) = %+q, want %+q", s, got, want)
				}
			}
		}
	}
}

// TestNormalizeFastNoCopy: already-normal text of the fast scripts comes
// back as the same string, without an allocation.
func TestNormalizeFastNoCopy(t *testing.T) {
	for _, s := range []string{"部署の手順とサーバー、", "сервер базы данных", "เซิร์ฟเวอร์", "데이터베이스 서버", "café crème"} {
		if allocs := testing.AllocsPerRun(10, func() { _ = Normalize(s) }); allocs != 0 {
			t.Errorf("Normalize(%q): %v allocations", s, allocs)
		}
		if diff := cmp.Diff(normalizeRef(s), Normalize(s)); diff != "" {
			t.Errorf("Normalize(%q) (-ref +got):\n%s", s, diff)
		}
	}
	if !utf8.ValidString(Normalize("Ｓｅｒｖｅｒ，部署")) {
		t.Error("invalid UTF-8")
	}
}

// TestDecodeRuneEqualsUTF8 compares decodeRune with the utf8 package on
// every three-byte input that starts with a multi-byte lead (0x80–0xEF),
// alone, cut to its first two bytes, and followed by more text.
func TestDecodeRuneEqualsUTF8(t *testing.T) {
	buf := []byte{0, 0, 0, 'x'}
	for c := 0x80; c < 0xF0; c++ {
		for c1 := range 256 {
			for c2 := range 256 {
				buf[0], buf[1], buf[2] = byte(c), byte(c1), byte(c2)
				for _, s := range []string{string(buf[:2]), string(buf[:3]), string(buf)} {
					r, n := decodeRune(s, 0)
					wr, wn := utf8.DecodeRuneInString(s)
					if r != wr || n != wn {
						t.Fatalf("decodeRune(%+q) = %U, %d; utf8 says %U, %d", s, r, n, wr, wn)
					}
				}
			}
		}
	}
	for _, s := range []string{"a", "é", "\xe3", "\xe3\x81", "𠀀", "\xf0\x90"} {
		r, n := decodeRune(s, 0)
		if wr, wn := utf8.DecodeRuneInString(s); r != wr || n != wn {
			t.Errorf("decodeRune(%+q) = %U, %d; utf8 says %U, %d", s, r, n, wr, wn)
		}
	}
}

// TestStableLeadBytes checks the lead-byte shortcut of normalizeFast and
// classAt on every three-byte sequence that starts with one of its lead
// bytes (E5–E9, EB, EC), valid or not, alone and followed by text: where
// the shortcut applies, the code point is a CJK-class character that
// fastRune holds stable with combining class 0, and classAt answers as
// classify does.
func TestStableLeadBytes(t *testing.T) {
	buf := []byte{0, 0, 0, 'x'}
	for _, c := range []byte{0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEB, 0xEC} {
		for c1 := range 256 {
			for c2 := range 256 {
				buf[0], buf[1], buf[2] = c, byte(c1), byte(c2)
				for _, s := range []string{string(buf[:3]), string(buf)} {
					r, size := utf8.DecodeRuneInString(s)
					class, n := classAt(s, 0)
					if n != size || class != classify(r) {
						t.Fatalf("classAt(%+q) = %d, %d; classify says %d, %d", s, class, n, classify(r), size)
					}
					if size != 3 {
						continue
					}
					if kind, ccc := fastRune(r); kind != fastStable || ccc != 0 {
						t.Fatalf("%U: fastRune = %d, %d, want stable, 0", r, kind, ccc)
					}
				}
			}
		}
	}
}

// TestStableTwoByteLetters checks the two-byte shortcuts of
// normalizeFast and classAt on every sequence of their lead bytes (C3,
// D0, D1) and any second byte, alone and between letters: classAt answers
// as classify does, and Normalize as the full path does.
func TestStableTwoByteLetters(t *testing.T) {
	for _, c := range []byte{0xC3, 0xD0, 0xD1} {
		for c1 := range 256 {
			seq := string([]byte{c, byte(c1)})
			for _, s := range []string{seq, seq + "x", "A" + seq + "b"} {
				if got, want := Normalize(s), normalizeRef(s); got != want {
					t.Fatalf("Normalize(%+q) = %+q, want %+q", s, got, want)
				}
			}
			r, size := utf8.DecodeRuneInString(seq + "x")
			if class, n := classAt(seq+"x", 0); class != classify(r) || n != size {
				t.Fatalf("classAt(%+q) = %d, %d; classify says %d, %d", seq, class, n, classify(r), size)
			}
		}
	}
}

// TestStableThai checks the Thai shortcuts of normalizeFast and classAt
// on every pair of sequences E0 B8 xx / E0 B9 xx (so every mark after
// every character, in and out of canonical order): Normalize answers as
// the full path does and classAt as classify does.
func TestStableThai(t *testing.T) {
	var seqs []string
	for _, c1 := range []byte{0xB8, 0xB9} {
		for c2 := range 256 {
			seqs = append(seqs, string([]byte{0xE0, c1, byte(c2)}))
		}
	}
	for _, a := range seqs {
		r, size := utf8.DecodeRuneInString(a + "x")
		if class, n := classAt(a+"x", 0); class != classify(r) || n != size {
			t.Fatalf("classAt(%+q) = %d, %d; classify says %d, %d", a, class, n, classify(r), size)
		}
		for _, b := range seqs {
			if s := a + b; Normalize(s) != normalizeRef(s) {
				t.Fatalf("Normalize(%+q) = %+q, want %+q", s, Normalize(s), normalizeRef(s))
			}
		}
	}
}

// TestStableKanaHangul checks stableKanaHangul on every three-byte
// sequence of its lead bytes: where it holds, the sequence is one code
// point that fastRune holds stable with combining class 0 and classify
// files as CJK; and classAt answers as classify does on every one.
func TestStableKanaHangul(t *testing.T) {
	for _, c := range []byte{0xE3, 0xEA, 0xED} {
		for c1 := range 256 {
			for c2 := range 256 {
				s := string([]byte{c, byte(c1), byte(c2), 'x'})
				r, size := utf8.DecodeRuneInString(s)
				if class, n := classAt(s, 0); class != classify(r) || n != size {
					t.Fatalf("classAt(%+q) = %d, %d; classify says %d, %d", s, class, n, classify(r), size)
				}
				if !stableKanaHangul(c, byte(c1), byte(c2)) {
					continue
				}
				if kind, ccc := fastRune(r); size != 3 || kind != fastStable || ccc != 0 || classify(r) != classCJK {
					t.Fatalf("%+q: size %d, fastRune %d, %d, class %d; want 3, stable, 0, CJK", s[:3], size, kind, ccc, classify(r))
				}
			}
		}
	}
}

// TestLongMarkRuns: x/text's NFKC breaks a run of more than 30
// non-starters with U+034F (the Stream-Safe Text Format), counting the
// mark a character before the run decomposes to (à, が); the fast paths
// hand such runs to it (see normalizeFast), so a field holds the same tokens
// whether or not something else in it (①) sends it down the full path.
func TestLongMarkRuns(t *testing.T) {
	var classes []uint8 // the hand-over counts on three
	for r := rune(0); r <= 0xFFFF; r++ {
		if _, ccc := fastRune(r); ccc != 0 && !slices.Contains(classes, ccc) {
			classes = append(classes, ccc)
		}
	}
	slices.Sort(classes)
	if diff := cmp.Diff([]uint8{9, 103, 107}, classes); diff != "" {
		t.Fatalf("fastRune's combining classes (-want +got):\n%s", diff)
	}
	marks := func(m string, n int) string { return strings.Repeat(m, n) }
	for _, s := range []string{
		"ก" + marks("\u0e48", 29) + "ข",
		"ก" + marks("\u0e48", 30) + "ข",
		"ก" + marks("\u0e48", 31) + "ข", // the finding's text
		"ก" + marks("\u0e38\u0e48", 20) + "ข",
		"à" + marks("\u0e48", 30) + "ข",
		"が" + marks("\u0e48", 30) + "ข",
		"ขก" + marks("\u0e3a", 40) + "ขค",
		"ก" + marks("\u0e3a", 28) + "\u0e38\u0e48ข", // three classes in order
		"ก" + marks("\u0e3a", 27) + "\u0e38\u0e48ข",
		"ก" + marks("\u0e3a", 26) + "\u0e38\u0e38\u0e48\u0e48ข",
		"a" + marks("\u0301", 31),
	} {
		type result struct {
			Norm, NormMixed string
			Self            int
			Missing         []string // tokens of s that "① "+s lacks
		}
		mixed := map[string]bool{}
		for _, tok := range AppendTokens(nil, "① "+s) {
			mixed[tok] = true
		}
		var missing []string
		for _, tok := range AppendTokens(nil, s) {
			if !mixed[tok] {
				missing = append(missing, tok)
			}
		}
		want := result{Norm: normalizeFull(s), NormMixed: normalizeFull("① " + s), Self: 2}
		got := result{Norm: Normalize(s), NormMixed: Normalize("① " + s), Self: MatchLevel(s, s), Missing: missing}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+q (-want +got):\n%s", s, diff)
		}
		q := NewQuery(strings.Join(AppendTokens(nil, s), " "), nil)
		for _, body := range []string{s, "① " + s, s + " " + s} {
			checkDirect(t, &q, &memory.Document{Title: s, Body: body})
		}
	}
}

// TestPropLowerASCII: lowerASCII is strings.ToLower on every ASCII text,
// whatever its length (the eight-byte steps and the tail), and at every
// byte of the alphabet's edges ('@', 'A', 'Z', '[', '`', 'a', 'z', '{').
func TestPropLowerASCII(t *testing.T) {
	edges := rapid.SampledFrom([]byte("@AZ[`az{ \x00\x7f09_-"))
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.OneOf(edges, rapid.ByteRange(0, 0x7F)), 0, 40).Draw(t, "text")
		text := string(b)
		if got, want := lowerASCII(text), strings.ToLower(text); got != want {
			t.Fatalf("lowerASCII(%q) = %q, ToLower %q", text, got, want)
		}
	})
}
