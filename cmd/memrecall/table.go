package main

import (
	"io"
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// displayWidth is how many terminal columns s takes: two for East Asian
// wide and fullwidth characters, none for combining marks and other
// zero-width characters, one otherwise. text/tabwriter counts runes, so a
// Chinese or Japanese path pushed every later column out of line.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		case isWide(r):
			n += 2
		default:
			n++
		}
	}
	return n
}

func isWide(r rune) bool {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return true
	}
	return false
}

// writeTable writes rows under header in columns aligned by display width,
// two spaces apart, each line starting with indent; the last column is not
// padded.
func writeTable(w io.Writer, indent string, header []string, rows [][]string) {
	all := append([][]string{header}, rows...)
	widths := make([]int, len(header))
	for _, r := range all {
		for i, c := range r {
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	var b strings.Builder
	for _, r := range all {
		b.WriteString(indent)
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-displayWidth(c)+2))
			}
		}
		b.WriteByte('\n')
	}
	io.WriteString(w, b.String())
}
