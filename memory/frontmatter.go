package memory

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"unicode/utf8"
)

// emptyBody is the placeholder agents write into a topic with no content
// yet; it counts as an empty body.
const emptyBody = "_No entries yet._"

// Parsed is the content of one topic file, as Parse reads it.
type Parsed struct {
	// Type is the required `type`.
	Type Type
	// Title is `name`, else `title`, else the type's name.
	Title string
	// Description is `description`, or "".
	Description string
	// Body is the trimmed text after the closing `---`, as much of it as
	// was read (a prompt shows the first BodyWindow runes; the scorer reads
	// it all); "_No entries yet._" gives "".
	Body string
	// BodyTruncated reports that the body continues past Body: it is longer
	// than BodyWindow runes, or (in a scan) the file was longer than what
	// was read.
	BodyTruncated bool
}

// Parse reads a whole topic file: a `---` line, a YAML frontmatter, a `---`
// line, then the body. CRLF line ends are read as LF and a leading
// byte-order mark is ignored.
//
// The frontmatter is read in one of two ways (decision 0105). The flat form
// agents and people write most — only blank lines, `#` comment lines and
// `key: value` lines at column 0 whose value opens no YAML structure — is
// read line by line, without a YAML parser, in the dialect of decision
// 0104: values may be bare, "double-quoted" (escapes \" \\ \n \t; any other
// backslash is kept) or 'single-quoted' (a doubled single quote is one
// quote), a bare value is taken literally (` #` is not a comment), and a
// repeated key keeps its last value. Where YAML would read such a value
// the same way, the two readings agree by construction (checked by a
// property and a fuzz target). The line reader also takes the two nested
// shapes Claude Code writes: a `metadata:` block of alike-indented
// `key: value` lines, and a `>-`, `>`, `|-` or `|` block scalar as the
// value of name, title or description. Anything else — deeper nesting,
// other block scalars, flow collections, anchors and aliases, quoted keys,
// multi-line plain scalars — is parsed as YAML. `type` is read flat or
// nested under `metadata:` (flat wins when both are present); `name`,
// `title` and `description` may be any YAML scalar, read as its text.
//
// The error is one of the sentinels ErrBinary, ErrInvalidUTF8,
// ErrNoFrontmatter, ErrUnterminatedFrontmatter, ErrInvalidYAML,
// ErrNotString, ErrMissingType or ErrUnknownType (wrapped with the value),
// or ErrFrontmatterTooLong for a YAML frontmatter longer than ReadLimit.
func Parse(data []byte) (Parsed, error) {
	p, _, err := parse(data, true, nil)
	return p, err
}

// route says which reader produced a Parsed.
type route uint8

const (
	// routeFlat: the flat form, read line by line. Where YAML reads every
	// value as the same string (see lineForm) the two agree; where it
	// would not (a bare ` #`, `a: b` in a value, an unknown escape, an
	// unterminated quote) the line reading of decision 0104 stands.
	routeFlat route = iota
	// routeFallback: column-0 lines that are not the flat form and that
	// YAML rejects (a line without a colon, a bare value starting with `*`
	// or `[` followed by more text), read line by line as 0104 says.
	routeFallback
	// routeYAML: read by the YAML parser.
	routeYAML
)

// parse does Parse's work for a scan: data may be only a prefix of the file
// (complete is false), and scratch is a reusable buffer for CRLF
// normalisation that is returned for the next call. The returned strings
// share one allocation whenever no value needs unescaping.
func parse(data []byte, complete bool, scratch []byte) (Parsed, []byte, error) {
	p, _, scratch, err := parseRoute(data, complete, scratch, false)
	return p, scratch, err
}

// normalize checks and prepares a topic file's bytes for parse and
// parsePlain: a NUL byte is ErrBinary and invalid UTF-8 is ErrInvalidUTF8
// (after a prefix read, a rune or CRLF cut by the read limit is dropped
// first); a leading byte-order mark is dropped and CRLF becomes LF, in
// scratch, which is returned for the next call.
//
// checkText makes the three checks (decision 0226). It runs after the
// cut: the bytes a cut drops are never NUL (a partial rune's bytes are 0x80
// or more, and a CR), so looking for NUL after it finds what looking
// before it did.
func normalize(data []byte, complete bool, scratch []byte) ([]byte, []byte, error) {
	if !complete {
		// The read limit may cut a rune or a CRLF in half.
		data = trimPartialRune(data)
		data = bytes.TrimSuffix(data, []byte("\r"))
	}
	cr, err := checkText(data)
	if err != nil {
		return nil, scratch, err
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if cr {
		scratch = appendLF(scratch[:0], data)
		data = scratch
	}
	return data, scratch, nil
}

// parseRoute is parse, also saying which reader read the frontmatter.
// yamlOnly sends every frontmatter to the YAML parser (for the tests that
// hold the two readings against each other).
func parseRoute(data []byte, complete bool, scratch []byte, yamlOnly bool) (Parsed, route, []byte, error) {
	data, scratch, err := normalize(data, complete, scratch)
	if err != nil {
		return Parsed{}, routeFlat, scratch, err
	}
	p, r, err := parseNormalized(data, complete, yamlOnly, nil)
	return p, r, scratch, err
}

// parseNormalized is parseRoute after normalize: the scan normalises once
// and, for a root that takes plain notes, hands the same bytes to
// parsePlainNormalized when this says ErrNoFrontmatter. The one string the
// strings share is taken from tx (nil: its own allocation).
func parseNormalized(data []byte, complete, yamlOnly bool, tx *texts) (Parsed, route, error) {
	line, pos, ok := nextLine(data, 0)
	if !isFence(line) {
		return Parsed{}, routeFlat, ErrNoFrontmatter
	}
	fmStart, fmEnd := pos, pos
	var name, title, desc, typ span
	closed := false
	// flat: every line is blank, a comment, or a `key: value` at column 0
	// with a plain key and a value that opens no YAML structure.
	flat := true
	var nest nesting
	var metaType span
	for ok {
		start := pos
		line, pos, ok = nextLine(data, pos)
		if isFence(line) {
			closed = true
			fmEnd = start
			break
		}
		key, val, vstart, has := splitKey(line)
		if !has {
			if flat && nest.kind != nestNone && len(line) > 0 && line[0] == ' ' {
				if !nest.take(data, line, start, &metaType) {
					flat = false
				}
				continue
			}
			nest.kind = nestNone
			if flat && unkeyedNests(line) {
				flat = false
			}
			continue
		}
		nest.kind = nestNone
		sp := valueSpan(val, start+vstart)
		var dst *span
		switch string(key) {
		case "type":
			typ = sp
		case "name":
			name, dst = sp, &name
		case "title":
			title, dst = sp, &title
		case "description":
			desc, dst = sp, &desc
		case "metadata":
			if len(val) == 0 {
				nest = nesting{kind: nestMeta}
			}
		default:
			if flat && keyedNests(line, key, val, false) {
				flat = false
			}
			continue
		}
		if flat && keyedNests(line, key, val, true) {
			if h, ok := blockHeader(val); ok && dst != nil {
				*dst = span{}
				nest = nesting{kind: nestBlock, dst: dst, header: h}
				continue
			}
			flat = false
		}
	}
	if !closed {
		if !complete {
			return Parsed{}, routeFlat, ErrFrontmatterTooLong
		}
		return Parsed{}, routeFlat, ErrUnterminatedFrontmatter
	}
	r := routeFlat
	if !flat || yamlOnly {
		fm := data[fmStart:fmEnd]
		f, err := yamlFields(fm)
		if err == nil {
			p, err := f.parsed(data, pos, complete)
			return p, routeYAML, err
		}
		if !errors.Is(err, ErrInvalidYAML) || indented(fm) || yamlOnly {
			return Parsed{}, routeYAML, err
		}
		// YAML rejects a block of column-0 lines (a line without a colon,
		// a bare value starting with `*` or `[` and more text): read it
		// line by line as decision 0104 does, like Qwen Code.
		r = routeFallback
	}

	t, err := noteType(typ.raw(data), metaType.raw(data))
	if err != nil {
		return Parsed{}, r, err
	}

	// The body: trimmed, kept whole, marked truncated past the window.
	bodyStart, bodyEnd, truncated := body(data, pos, complete)

	// One allocation for everything that can be sliced without unescaping.
	s := tx.keep(data[:bodyEnd])
	p := Parsed{
		Type:          t,
		Description:   desc.decode(data, s),
		Body:          s[bodyStart:bodyEnd],
		BodyTruncated: truncated,
	}
	p.Title = noteTitle(t, name.decode(data, s), title.decode(data, s))
	return p, r, nil
}

// body locates the body after the closing fence at pos: trimmed, the
// "_No entries yet._" placeholder read as empty. The whole body read is
// kept, so the scorer can match past the BodyWindow a prompt shows
// (docs/decisions/0207-folding-stems.md); when the read stopped inside the
// file, a rune the read cut in two is left out.
func body(data []byte, pos int, complete bool) (start, end int, truncated bool) {
	start, end = trimSpan(data, pos, len(data))
	if string(data[start:end]) == emptyBody {
		start = end
	}
	if !complete {
		for i := end - 1; i >= start && i >= end-utf8.UTFMax; i-- {
			if utf8.RuneStart(data[i]) {
				if !utf8.FullRune(data[i:end]) {
					end = i
				}
				break
			}
		}
	}
	cut := windowEnd(data[start:end], BodyWindow)
	truncated = cut < end-start || !complete
	return start, end, truncated
}

// span locates a value in the parsed buffer. esc says it needs unescaping
// (a quoted value with escapes); quote is the quote character or 0.
type span struct {
	start, end int
	quote      byte
	esc        bool
	// A block scalar: block is '>' (folded) or '|' (literal), its lines
	// are data[start:end] indented by indent spaces, clip says a final
	// line break is kept (no '-' in the header).
	block  byte
	clip   bool
	indent int
}

func (s span) empty() bool { return s.end <= s.start }

func (s span) raw(data []byte) []byte { return data[s.start:s.end] }

// decode returns the value as a string: a slice of s (the string copy of
// data's prefix) when no unescaping is needed and s covers it, else a new
// string.
func (sp span) decode(data []byte, s string) string {
	if sp.empty() {
		return ""
	}
	if sp.block != 0 {
		return sp.blockText(data)
	}
	if !sp.esc {
		if sp.end <= len(s) {
			return s[sp.start:sp.end]
		}
		return string(data[sp.start:sp.end])
	}
	raw := data[sp.start:sp.end]
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case sp.quote == '"' && c == '\\' && i+1 < len(raw):
			i++
			switch raw[i] {
			case '"', '\\':
				out = append(out, raw[i])
			case 'n':
				out = append(out, '\n')
			case 't':
				out = append(out, '\t')
			default:
				out = append(out, '\\', raw[i])
			}
		case sp.quote == '\'' && c == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
			i++
			out = append(out, '\'')
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// valueSpan finds the value inside val (already trimmed), which starts at
// offset off in the buffer. A quoted value without its closing quote is
// read as bare text, quote included.
func valueSpan(val []byte, off int) span {
	if len(val) >= 2 && val[0] == '"' {
		esc := false
		for i := 1; i < len(val); i++ {
			switch val[i] {
			case '\\':
				esc = true
				i++
			case '"':
				return span{start: off + 1, end: off + i, quote: '"', esc: esc}
			}
		}
	}
	if len(val) >= 2 && val[0] == '\'' {
		esc := false
		for i := 1; i < len(val); i++ {
			if val[i] != '\'' {
				continue
			}
			if i+1 < len(val) && val[i+1] == '\'' {
				esc = true
				i++
				continue
			}
			return span{start: off + 1, end: off + i, quote: '\'', esc: esc}
		}
	}
	return span{start: off, end: off + len(val)}
}

// nextLine returns the line starting at pos (without its LF), the position
// after it, and whether there was a line at all.
func nextLine(data []byte, pos int) (line []byte, next int, ok bool) {
	if pos >= len(data) {
		return nil, pos, false
	}
	i := bytes.IndexByte(data[pos:], '\n')
	if i < 0 {
		return data[pos:], len(data), true
	}
	return data[pos : pos+i], pos + i + 1, true
}

// isFence reports a `---` line; trailing blanks are tolerated because
// editors leave them.
func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t")) == "---"
}

// splitKey splits a `key: value` line. The key must start at column 0.
// vstart is the offset of the trimmed value within line.
func splitKey(line []byte) (key, val []byte, vstart int, ok bool) {
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
		return nil, nil, 0, false
	}
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return nil, nil, 0, false
	}
	key = bytes.TrimRight(line[:i], " \t")
	j := i + 1
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	val = bytes.TrimRight(line[j:], " \t")
	return key, val, j, true
}

// noteType is the frontmatter's type rule, one for the flat and the YAML
// reader: the value of `type`, else of `metadata.type` (meta); neither is
// ErrMissingType, and a spelling other than the four is ErrUnknownType
// with the value as written.
func noteType(typ, meta []byte) (Type, error) {
	if len(typ) == 0 {
		typ = meta
	}
	if len(typ) == 0 {
		return 0, ErrMissingType
	}
	t, known := typeOf(typ)
	if !known {
		return 0, fmt.Errorf("%w: %q", ErrUnknownType, string(typ)) // a copy: typ does not escape
	}
	return t, nil
}

// noteTitle is a note's title, one rule for every reader: the first of
// candidates that is not empty (a frontmatter's name, then its title; a
// plain note's heading, then its file name), else the name of its type.
func noteTitle(t Type, candidates ...string) string {
	for _, c := range candidates {
		if c != "" {
			return c
		}
	}
	return t.String()
}

// typeOf maps a raw `type` value without allocating.
func typeOf(b []byte) (Type, bool) {
	switch string(b) {
	case "user":
		return TypeUser, true
	case "feedback":
		return TypeFeedback, true
	case "project":
		return TypeProject, true
	case "reference":
		return TypeReference, true
	}
	return 0, false
}

// trimSpan trims Unicode white space from both ends of data[start:end].
func trimSpan(data []byte, start, end int) (int, int) {
	t := bytes.TrimLeftFunc(data[start:end], isSpace)
	start = end - len(t)
	t = bytes.TrimRightFunc(t, isSpace)
	return start, start + len(t)
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x85, 0xA0:
		return true
	}
	return r > 0xff && (r == 0x1680 || (r >= 0x2000 && r <= 0x200a) ||
		r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f || r == 0x3000)
}

// windowEnd returns the byte length of the first n runes of b, which is
// valid UTF-8 (normalize checked it). It counts rune starts (the bytes
// that are not 10xxxxxx) 32 bytes at a time, then eight, so Chinese or
// Japanese text costs about what ASCII does: this loop runs for every
// file a scan reads (docs/decisions/0801-start-up-cost.md), and a
// Japanese body is most of its file.
func windowEnd(b []byte, n int) int {
	if len(b) <= n {
		return len(b) // never more runes than bytes
	}
	const high = 0x8080808080808080
	// cont sets bit 7 of each continuation byte of x (see below).
	cont := func(x uint64) uint64 { return x &^ (x << 1) & high }
	i, k := 0, 0
	for i+32 <= len(b) {
		w := b[i : i+32]
		// Four words' bits moved to bits 7, 6, 5 and 4 of each byte:
		// one count for 32 bytes.
		m := cont(binary.LittleEndian.Uint64(w[0:8])) |
			cont(binary.LittleEndian.Uint64(w[8:16]))>>1 |
			cont(binary.LittleEndian.Uint64(w[16:24]))>>2 |
			cont(binary.LittleEndian.Uint64(w[24:32]))>>3
		starts := 32 - bits.OnesCount64(m)
		if k+starts > n {
			break // rune n starts in these 32 bytes
		}
		k += starts
		i += 32
	}
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		// Bit 7 of each continuation byte: bit 7 set, bit 6 clear. The
		// shift moves each byte's bit 6 onto its bit 7; what crosses into
		// the next byte lands on bit 0, which the mask drops.
		starts := 8 - bits.OnesCount64(x&^(x<<1)&high)
		if k+starts > n {
			break // rune n starts in these eight bytes
		}
		k += starts
		i += 8
	}
	for ; i < len(b); i++ {
		if b[i]&0xC0 != 0x80 {
			if k == n {
				return i
			}
			k++
		}
	}
	return len(b)
}

// trimPartialRune drops a rune cut in half by the read limit, so a valid
// file read in part is still valid UTF-8.
func trimPartialRune(b []byte) []byte {
	for k := 1; k <= utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return b
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-k:]) {
				return b[:len(b)-k]
			}
			return b
		}
	}
	return b
}

// appendLF appends data to dst with every CRLF turned into LF.
func appendLF(dst, data []byte) []byte {
	for {
		i := bytes.Index(data, []byte("\r\n"))
		if i < 0 {
			return append(dst, data...)
		}
		dst = append(dst, data[:i]...)
		dst = append(dst, '\n')
		data = data[i+2:]
	}
}
