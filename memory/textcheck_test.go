package memory

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// checkTextRef is checkText's definition: the three passes normalize made
// before it (a NUL anywhere, then utf8.Valid, then a CR anywhere).
func checkTextRef(p []byte) (bool, error) {
	if bytes.IndexByte(p, 0) >= 0 {
		return false, ErrBinary
	}
	if !utf8.Valid(p) {
		return false, ErrInvalidUTF8
	}
	return bytes.IndexByte(p, '\r') >= 0, nil
}

// normalizeRef is normalize as it was before checkText: three passes over
// the bytes.
func normalizeRef(data []byte, complete bool, scratch []byte) ([]byte, []byte, error) {
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, scratch, ErrBinary
	}
	if !complete {
		data = trimPartialRune(data)
		data = bytes.TrimSuffix(data, []byte("\r"))
	}
	if !utf8.Valid(data) {
		return nil, scratch, ErrInvalidUTF8
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if bytes.IndexByte(data, '\r') >= 0 {
		scratch = appendLF(scratch[:0], data)
		data = scratch
	}
	return data, scratch, nil
}

// fataler is what checkAgainstRef needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkTextAgainstRef fails t when checkText differs from its definition
// on p. The exhaustive tests call it millions of times, so it marks
// itself a helper only on the way to a failure.
func checkTextAgainstRef(t fataler, p []byte) {
	cr, err := checkText(p)
	wcr, werr := checkTextRef(p)
	if err != werr || cr != wcr {
		t.Helper()
		t.Fatalf("checkText(%q) = %v, %v; want %v, %v", p, cr, err, wcr, werr)
	}
}

// checkAgainstRef fails t when checkText or normalize (complete or not)
// differs from its definition on p.
func checkAgainstRef(t fataler, p []byte) {
	t.Helper()
	checkTextAgainstRef(t, p)
	for _, complete := range []bool{true, false} {
		got, _, err := normalize(p, complete, nil)
		want, _, werr := normalizeRef(p, complete, nil)
		if err != werr {
			t.Fatalf("normalize(%q, %v): error %v, want %v", p, complete, err, werr)
		}
		if !bytes.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("normalize(%q, %v) = %q, want %q", p, complete, got, want)
		}
	}
}

func TestCheckTextCases(t *testing.T) {
	type result struct {
		CR  bool
		Err error
	}
	for _, tc := range []struct {
		in   string
		want result
	}{
		{"", result{}},
		{"plain ascii text, longer than a word", result{}},
		{"crlf\r\nline\r\n", result{CR: true}},
		{"12345678\r", result{CR: true}},
		{"1234567\r", result{CR: true}},
		{"abcdefgh\x00", result{Err: ErrBinary}},
		{"\x00", result{Err: ErrBinary}},
		{"漢字かなカナ한글", result{}},
		{"漢字\r\nかな", result{CR: true}},
		{"\xe0\x80\x80", result{Err: ErrInvalidUTF8}},     // overlong
		{"\xe0\xa0\x80", result{}},                        // U+0800
		{"\xed\x9f\xbf", result{}},                        // U+D7FF
		{"\xed\xa0\x80", result{Err: ErrInvalidUTF8}},     // surrogate
		{"\xef\xbf\xbd", result{}},                        // U+FFFD itself
		{"\xc1\xbf", result{Err: ErrInvalidUTF8}},         // overlong two-byte
		{"\xc2\x80", result{}},                            // U+0080
		{"\xdf\xbf", result{}},                            // U+07FF
		{"\xf0\x9f\x98\x80", result{}},                    // four bytes
		{"\xf4\x90\x80\x80", result{Err: ErrInvalidUTF8}}, // past U+10FFFF
		{"漢\xe5\xad", result{Err: ErrInvalidUTF8}},        // cut
		{"漢\xe5\xad\x00", result{Err: ErrBinary}},         // NUL after the invalid byte
		{"\xff abc \r", result{Err: ErrInvalidUTF8}},
		{"ascii then \xe6\xbc\xa2 then\r", result{CR: true}},
	} {
		cr, err := checkText([]byte(tc.in))
		if diff := cmp.Diff(tc.want, result{cr, err}, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
			t.Errorf("checkText(%q) (-want +got):\n%s", tc.in, diff)
		}
		checkAgainstRef(t, []byte(tc.in))
	}
}

// TestCheckTextEverySequence holds checkText to its definition on every
// sequence of a byte of 0x80–0xFF and two more bytes, alone and between
// ASCII bytes (so that the word loop runs up to it and on after it).
func TestCheckTextEverySequence(t *testing.T) {
	buf := []byte("ab___cdefghijkl")
	for c := 0x80; c <= 0xFF; c++ {
		for b1 := range 256 {
			for b2 := range 256 {
				seq := []byte{byte(c), byte(b1), byte(b2)}
				copy(buf[2:], seq)
				checkTextAgainstRef(t, seq)
				checkTextAgainstRef(t, buf)
			}
		}
	}
}

// TestCheckTextSequenceRuns holds checkText to its definition on every
// two-byte sequence (leads C0–DF) in each slot of a run of four two-byte
// letters, and on every three-byte sequence (leads E0–EF) first or second
// in a pair of three-byte ones, each after 0 to 7 ASCII bytes: the steps
// that take four or two sequences from one word.
func TestCheckTextSequenceRuns(t *testing.T) {
	check := func(p []byte) { checkTextAgainstRef(t, p) }
	for pre := range 8 {
		head := []byte("abcdefg"[:pre])
		for c := 0xC0; c <= 0xDF; c++ {
			for b1 := 0x80; b1 <= 0xBF; b1++ {
				for slot := range 4 {
					run := []byte("жжжжж")
					run[2*slot], run[2*slot+1] = byte(c), byte(b1)
					check(append(append([]byte{}, head...), run...))
				}
			}
		}
		for c := 0xE0; c <= 0xEF; c++ {
			for b1 := 0x80; b1 <= 0xBF; b1++ {
				for b2 := 0x80; b2 <= 0xBF; b2++ {
					seq := string([]byte{byte(c), byte(b1), byte(b2)})
					check([]byte(string(head) + seq + "漢字"))
					check([]byte(string(head) + "漢" + seq + "字"))
				}
			}
		}
	}
}

// TestCheckTextThreeByteRuns holds checkText to its definition on three-
// byte sequences in each of the four slots of threeByteRun's twelve-byte
// step, after a pair of valid sequences (the step validUTF8 takes before
// it) and 0 to 2 ASCII bytes, with a run of kanji after: every lead E0–EF
// with every second byte and the edges of the third, and every third
// byte after the edges of the second.
func TestCheckTextThreeByteRuns(t *testing.T) {
	check := func(p []byte) { checkTextAgainstRef(t, p) }
	edges := []int{0x00, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xE3, 0xFF}
	try := func(c, b1, b2 int) {
		for pre := range 3 {
			for slot := range 4 {
				run := []byte("漢字漢字漢字漢字漢字")
				run[3*slot], run[3*slot+1], run[3*slot+2] = byte(c), byte(b1), byte(b2)
				check(append([]byte("ab"[:pre]+"漢字"), run...))
			}
		}
	}
	for c := 0xE0; c <= 0xEF; c++ {
		for b := range 256 {
			for _, e := range edges {
				try(c, b, e)
				try(c, e, b)
			}
		}
	}
}

// TestCheckTextWordPositions puts each byte value, and each pair of a few
// bytes (NUL, CR, non-ASCII, near misses), at every position of a run of
// ASCII long enough for the 32-byte step, so that every lane of every word
// test is tried.
func TestCheckTextWordPositions(t *testing.T) {
	// 80 bytes: the first word, two 32-byte steps (the step runs while
	// more than 32 bytes follow, so 72 bytes took one), the last word.
	const base = "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
	for pos := range len(base) {
		for c := range 256 {
			p := []byte(base)
			p[pos] = byte(c)
			checkAgainstRef(t, p)
		}
	}
	special := []byte{0, '\r', '\n', 0x01, 0x0c, 0x0e, 0x7f, 0x80, 0xe6, 0xff}
	for i := range len(base) {
		for j := i + 1; j < len(base); j++ {
			for _, a := range special {
				for _, b := range special {
					p := []byte(base)
					p[i], p[j] = a, b
					checkAgainstRef(t, p)
				}
			}
		}
	}
}

// textGen draws byte strings that make interesting topic files: ASCII letters
// and the bytes normalize looks for, lead and continuation bytes of every
// length including the edge ones (overlong, surrogate, past U+10FFFF),
// and whole code points of the common scripts and the byte-order mark.
func textGen() *rapid.Generator[[]byte] {
	pieces := []string{
		"a", "z", " ", "\n", "\r", "\r\n", "\x00", "---\n", "type: user\n",
		"\x80", "\xbf", "\xc0", "\xc1", "\xc2", "\xdf", "\xe0", "\xe0\xa0", "\xed", "\xed\xa0", "\xef",
		"\xf0", "\xf4", "\xf4\x90", "\xf5", "\xff",
		"é", "ж", "漢", "字", "か", "ナ", "한", "ไ", "，", "😀", "\uFEFF", "\uFFFD", "\u07ff", "\u0800", "\ud7ff",
	}
	leads := []byte{0xc0, 0xc1, 0xc2, 0xd0, 0xdf, 0xe0, 0xe3, 0xe6, 0xed, 0xee, 0xef, 0xf0, 0xf4, 0xf5}
	piece := rapid.Custom(func(t *rapid.T) []byte {
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			return []byte{rapid.Byte().Draw(t, "b")}
		case 1:
			// A lead byte and up to three continuation bytes: every
			// shape, valid or not, of a multi-byte sequence.
			b := []byte{rapid.SampledFrom(leads).Draw(t, "lead")}
			for range rapid.IntRange(0, 3).Draw(t, "conts") {
				b = append(b, rapid.ByteRange(0x80, 0xbf).Draw(t, "cont"))
			}
			return b
		}
		return []byte(rapid.SampledFrom(pieces).Draw(t, "piece"))
	})
	return rapid.Custom(func(t *rapid.T) []byte {
		var b []byte
		for _, p := range rapid.SliceOfN(piece, 4, 64).Draw(t, "pieces") {
			b = append(b, p...)
		}
		return b
	})
}

// TestPropCheckTextEqualsRef: on arbitrary bytes, and on every prefix of
// them (a read cut anywhere, mid-rune or between CR and LF), checkText and
// normalize give what the three passes gave.
func TestPropCheckTextEqualsRef(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := textGen().Draw(t, "text")
		for cut := range len(p) + 1 {
			checkAgainstRef(t, p[:cut])
		}
	})
}

func FuzzCheckText(f *testing.F) {
	for _, s := range []string{
		"",
		"---\ntype: user\nname: plain\n---\nbody text\n",
		"\uFEFF---\r\ntype: user\r\n---\r\n漢字かなカナ한글\r\n",
		"---\ntype: user\n---\n漢字\xe5\xad",
		"---\ntype: user\n---\nab\r",
		"\xed\xa0\x80 \xe0\x80\x80 \xc1\xbf \xf4\x90\x80\x80",
		"abcdefgh\x00ijklmnop",
		"漢\xe5\xad\x00",
		"mixed 鄲跑 hfcnl clpqmdvy 噣虞菮\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		for cut := range len(p) + 1 {
			checkAgainstRef(t, p[:cut])
		}
	})
}
