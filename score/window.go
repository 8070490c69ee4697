package score

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// BodyWindow returns the part of body that a prompt surfaces and the scorer
// reads: its first memory.BodyWindow runes, cut on a rune boundary. The
// window is taken on the raw body, before normalisation, because that is
// what the user and the model see.
func BodyWindow(body string) string {
	if len(body) <= memory.BodyWindow {
		return body // no more runes than bytes
	}
	if asciiCase(body[:memory.BodyWindow]) != notASCII {
		return body[:memory.BodyWindow] // one byte per rune
	}
	// A body the scan has already cut to the window is within it: one
	// counting pass, with no decoding, says so. A body longer than the
	// window's runes can be bytes (utf8.UTFMax each) is not.
	if len(body) <= utf8.UTFMax*memory.BodyWindow && runeCountAtMost(body, memory.BodyWindow) {
		return body
	}
	// The window's runes, as a range loop counts them (an invalid byte is
	// one), and no further.
	i := 0
	for n := 0; n < memory.BodyWindow && i < len(body); n++ {
		_, size := decodeRune(body, i)
		i += size
	}
	return body[:i]
}

// runeCountAtMost reports utf8.RuneCountInString(s) <= n. It counts the
// bytes that start a code point (not 10xxxxxx) eight at a time: no text
// has more of them than code points, so more than n decides; otherwise
// valid UTF-8 has exactly that many, and only invalid text is counted the
// slow way (TestPropBodyWindowEqualsRef).
func runeCountAtMost(s string, n int) bool {
	const high = 0x8080808080808080
	starts, i := 0, 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64([]byte(s[i : i+8]))
		// A continuation byte has bit 7 set and bit 6 clear; the shift
		// moves bit 6 onto bit 7 (what crosses into the next byte lands
		// on bit 0, which the mask drops).
		starts += 8 - bits.OnesCount64(x&^(x<<1)&high)
	}
	for ; i < len(s); i++ {
		if s[i]&0xC0 != 0x80 {
			starts++
		}
	}
	if starts > n {
		return false
	}
	return utf8.ValidString(s) || utf8.RuneCountInString(s) <= n
}
