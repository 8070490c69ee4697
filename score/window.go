package score

import (
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
	if len(body) <= utf8.UTFMax*memory.BodyWindow && utf8.RuneCountInString(body) <= memory.BodyWindow {
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
