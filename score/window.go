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
	// A body the scan has already cut (every body of a catalog document)
	// is within the window: one counting pass, with no decoding, says so.
	if utf8.RuneCountInString(body) <= memory.BodyWindow {
		return body
	}
	n := 0
	for i := range body {
		if n == memory.BodyWindow {
			return body[:i]
		}
		n++
	}
	return body
}
