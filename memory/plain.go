package memory

import (
	"bytes"
	"path"
	"strings"
)

// parsePlain reads a topic file that has no frontmatter, the form Gemini
// CLI writes its own notes in (a `# <topic>` line, then text), as a
// document of type t (docs/decisions/0108-plain-notes.md). A catalog reads
// plain notes only for a root whose Roots field asks for them, and only
// after the frontmatter reader said ErrNoFrontmatter, through
// parsePlainNormalized on the bytes that reader already checked.
//
// The title is the first non-blank line when it is a `# ` heading, else
// name's base without ".md" (the type's name if that is empty). The body is
// the trimmed text after the heading (the whole text without one), kept and
// marked truncated as parse keeps a frontmatter body (see body). The
// description stays empty: Gemini writes none, and one taken from the body
// would count the same words twice in scoring and show them twice in the
// injected text. Like parse, a NUL byte is
// ErrBinary and invalid UTF-8 is ErrInvalidUTF8; CRLF reads as LF and a
// leading byte-order mark is ignored. complete and scratch are parse's.
func parsePlain(data []byte, complete bool, scratch []byte, name string, t Type) (Parsed, []byte, error) {
	data, scratch, err := normalize(data, complete, scratch)
	if err != nil {
		return Parsed{}, scratch, err
	}
	return parsePlainNormalized(data, complete, name, t, nil), scratch, nil
}

// parsePlainNormalized is parsePlain after normalize. A scan calls it with
// the bytes parseNormalized refused for want of a frontmatter, so a plain
// note is checked and normalised once, not twice. Its text is taken from
// tx as parseNormalized's is.
func parsePlainNormalized(data []byte, complete bool, name string, t Type, tx *texts) Parsed {

	// The first non-blank line may be the heading.
	var title span
	pos := 0
	for {
		line, next, ok := nextLine(data, pos)
		if !ok {
			break
		}
		if len(bytes.TrimFunc(line, isSpace)) == 0 {
			pos = next
			continue
		}
		if h, ok := headingText(line); ok {
			title = span{start: pos + h.start, end: pos + h.end}
			pos = next
		}
		break
	}
	if title.empty() {
		pos = 0
	}

	bodyStart, bodyEnd, truncated := body(data, pos, complete)
	s := tx.keep(data[:max(bodyEnd, title.end)])
	p := Parsed{
		Type:          t,
		Body:          s[bodyStart:bodyEnd],
		BodyTruncated: truncated,
	}
	heading := s[title.start:max(title.end, title.start)]
	p.Title = noteTitle(t, heading, fileTitle(name))
	return p
}

// fileTitle is a plain note's title from its file name: the base name
// without ".md"; "" when that leaves nothing usable.
func fileTitle(name string) string {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(name, "\\", "/")), ".md")
	if base == "." || base == "/" {
		return ""
	}
	return base
}

// headingText locates the text of a level-1 ATX heading line (`# text`,
// at most three leading spaces, optional closing `#`s), relative to line.
func headingText(line []byte) (span, bool) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '#' {
		return span{}, false
	}
	i++
	if i >= len(line) || (line[i] != ' ' && line[i] != '\t') {
		return span{}, false
	}
	start, end := trimSpan(line, i, len(line))
	// A closing sequence of `#`s after a blank is not part of the text.
	if t := bytes.TrimRight(line[start:end], "#"); len(t) < end-start && (len(t) == 0 || t[len(t)-1] == ' ' || t[len(t)-1] == '\t') {
		_, end = trimSpan(line, start, start+len(t))
	}
	if end <= start {
		return span{}, false
	}
	return span{start: start, end: end}, true
}
