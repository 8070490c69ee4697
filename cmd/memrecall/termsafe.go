package main

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// termSafe returns s with every character that could drive a terminal
// escaped the way %q escapes it (\x1b, \a, \u202e), and invalid UTF-8 as
// \xNN; everything else is left as it is, so ordinary titles and paths
// print unchanged. Memory files are written by agents and by anything that
// can write to the memory directory: a name holding ESC must not reach the
// user's terminal raw. The query text is printed with %q for the same
// reason.
func termSafe(s string) string { return escapeControls(s, false) }

// termSafeBlock is termSafe for multi-line text: newlines and tabs are
// kept.
func termSafeBlock(s string) string { return escapeControls(s, true) }

func escapeControls(s string, block bool) string {
	clean := true
	for i, r := range s {
		if mustEscape(r, block) || (r == utf8.RuneError && !validAt(s, i)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !validAt(s, i):
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i]), 16))
		case mustEscape(r, block):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mustEscape reports C0 and C1 controls and DEL (unicode.IsControl), and
// the bidirectional overrides and isolates, which reorder what the terminal
// shows. In block mode newline and tab are text.
func mustEscape(r rune, block bool) bool {
	if block && (r == '\n' || r == '\t') {
		return false
	}
	return unicode.IsControl(r) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// validAt reports that the U+FFFD at s[i] is really in the text, not the
// decoding of an invalid byte.
func validAt(s string, i int) bool {
	_, n := utf8.DecodeRuneInString(s[i:])
	return n == 3
}
