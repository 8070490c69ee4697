package score

import (
	"math/bits"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// BodyWindow returns the part of body that a prompt surfaces and the scorer
// reads: its first memory.BodyWindow runes, cut on a rune boundary. The
// window is taken on the raw body, before normalisation, because that is
// what the user and the model see.
func BodyWindow(body string) string {
	w, _ := bodyWindow(body, true)
	return w
}

// bodyWindow is BodyWindow. With validate false, a body that is its own
// window if it is valid UTF-8 (not longer in code-point starts than the
// window) is returned whole without the validity check, which is a
// decode of every rune, and unchecked says so: a caller that decodes the
// body anyway checks it there (scoreDirect), and calls BodyWindow when it
// is not valid.
func bodyWindow(body string, validate bool) (w string, unchecked bool) {
	if len(body) <= memory.BodyWindow {
		return body, false // no more runes than bytes
	}
	if asciiCase(body[:memory.BodyWindow]) != notASCII {
		return body[:memory.BodyWindow], false // one byte per rune
	}
	// A body the scan has already cut to the window is within it: one
	// counting pass, with no decoding, says so. A body longer than the
	// window's runes can be bytes (utf8.UTFMax each) is not.
	if len(body) <= utf8.UTFMax*memory.BodyWindow && startsAtMost(body, memory.BodyWindow) {
		if !validate {
			return body, true
		}
		if withinRunes(body, memory.BodyWindow) {
			return body, false
		}
	}
	// The window's runes, as a range loop counts them (an invalid byte is
	// one), and no further.
	i := 0
	for n := 0; n < memory.BodyWindow && i < len(body); n++ {
		_, size := decodeRune(body, i)
		i += size
	}
	return body[:i], false
}

// load64 returns the first eight bytes of s (at least eight long) as a
// little-endian word, in one load. binary.LittleEndian.Uint64 of
// []byte(s) loads the same word, but the conversion adds a test for an
// empty string to each load, which a loop of four loads a step paid.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// withinRunes reports utf8.RuneCountInString(s) <= n for s that has at
// most n code-point starts (startsAtMost): valid UTF-8 has that many code
// points, and only invalid text is counted the slow way
// (TestPropBodyWindowEqualsRef).
func withinRunes(s string, n int) bool {
	return utf8.ValidString(s) || utf8.RuneCountInString(s) <= n
}

// startsAtMost reports whether s has at most n bytes that start a code
// point (are not 10xxxxxx), counting 32 bytes at a time. No text has
// more of them than code points, so false means more than n code points.
// A cold query runs it over every body that is not ASCII.
func startsAtMost(s string, n int) bool {
	const high = 0x8080808080808080
	// cont sets bit 7 of each continuation byte of x: bit 7 set, bit 6
	// clear. The shift moves bit 6 onto bit 7 (what crosses into the
	// next byte lands on bit 0, which the mask drops).
	cont := func(x uint64) uint64 { return x &^ (x << 1) & high }
	conts, i := 0, 0
	for ; i+32 <= len(s); i += 32 {
		b := s[i : i+32]
		// Four words' bits moved to bits 7, 6, 5 and 4 of each byte:
		// one count for 32 bytes.
		m := cont(load64(b[0:8])) |
			cont(load64(b[8:16]))>>1 |
			cont(load64(b[16:24]))>>2 |
			cont(load64(b[24:32]))>>3
		conts += bits.OnesCount64(m)
	}
	for ; i+8 <= len(s); i += 8 {
		conts += bits.OnesCount64(cont(load64(s[i : i+8])))
	}
	for ; i < len(s); i++ {
		if s[i]&0xC0 == 0x80 {
			conts++
		}
	}
	return len(s)-conts <= n
}
