package memory

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// OneLine flattens a frontmatter value to one line, the form the manifest
// and the injected text show titles and descriptions in: every run of
// white space, C0/C1 control characters (a "\n" escape can put a newline
// in a quoted value) and U+2028/U+2029 becomes one space, the ends are
// trimmed, and invalid UTF-8 becomes U+FFFD. So one document is exactly
// one manifest line, and a title cannot start a heading of its own.
//
// The result stops after maxRunes runes (no limit when negative); a space
// exposed by the cut is dropped. cut reports whether anything that would
// have been kept was left out, so a caller can mark it. Runs of printable
// ASCII are copied whole: they are most of any description.
func OneLine(s string, maxRunes int) (line string, cut bool) {
	var b strings.Builder
	if maxRunes < 0 {
		b.Grow(len(s))
	} else {
		b.Grow(min(len(s), 4*maxRunes))
	}
	left := maxRunes // runes still allowed; negative means unlimited
	pendingSpace := false
	i := 0
	for i < len(s) && left != 0 {
		if c := s[i]; c > ' ' && c < utf8.RuneSelf && c != 0x7f {
			j := i + 1
			for j < len(s) && s[j] > ' ' && s[j] < utf8.RuneSelf && s[j] != 0x7f {
				j++
			}
			if pendingSpace {
				b.WriteByte(' ')
				pendingSpace = false
				if left--; left == 0 {
					break
				}
			}
			if left > 0 && j-i > left {
				j = i + left
			}
			b.WriteString(s[i:j])
			if left > 0 {
				left -= j - i
			}
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:]) // RuneError for an invalid byte
		i += size
		if BreaksLine(r) || unicode.IsSpace(r) {
			pendingSpace = b.Len() > 0
			continue
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
			if left--; left == 0 {
				// r was read but does not fit: it is what the cut drops.
				return strings.TrimRight(b.String(), " "), true
			}
		}
		b.WriteRune(r)
		if left > 0 {
			left--
		}
	}
	return strings.TrimRight(b.String(), " "), left == 0 && hasText(s[i:])
}

// hasText reports whether s holds anything OneLine would keep.
func hasText(s string) bool {
	for _, r := range s {
		if !BreaksLine(r) && !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// BreaksLine reports runes that could end or corrupt a line: C0/C1
// controls (newline, CR, NEL, …) and the Unicode line and paragraph
// separators.
func BreaksLine(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}
