package memory

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// legacyParse is Parse's flat-only parser as it was before the YAML path
// (issue 11), kept as the reference for BenchmarkParseForms: the flat form
// must cost what it cost. It does Parse's work for a scan: data may be only a prefix of the file
// (complete is false), and scratch is a reusable buffer for CRLF
// normalisation that is returned for the next call. The returned strings
// share one allocation whenever no value needs unescaping.
func legacyParse(data []byte, complete bool, scratch []byte) (Parsed, []byte, error) {
	if bytes.IndexByte(data, 0) >= 0 {
		return Parsed{}, scratch, ErrBinary
	}
	if !complete {
		// The read limit may cut a rune or a CRLF in half.
		data = trimPartialRune(data)
		data = bytes.TrimSuffix(data, []byte("\r"))
	}
	if !utf8.Valid(data) {
		return Parsed{}, scratch, ErrInvalidUTF8
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if bytes.IndexByte(data, '\r') >= 0 {
		scratch = appendLF(scratch[:0], data)
		data = scratch
	}

	line, pos, ok := nextLine(data, 0)
	if !isFence(line) {
		return Parsed{}, scratch, ErrNoFrontmatter
	}
	var name, title, desc, typ span
	closed := false
	for ok {
		start := pos
		line, pos, ok = nextLine(data, pos)
		if isFence(line) {
			closed = true
			break
		}
		key, val, vstart, has := splitKey(line)
		if !has {
			continue
		}
		sp := valueSpan(val, start+vstart)
		switch string(key) {
		case "type":
			typ = sp
		case "name":
			name = sp
		case "title":
			title = sp
		case "description":
			desc = sp
		}
	}
	if !closed {
		if !complete {
			return Parsed{}, scratch, ErrFrontmatterTooLong
		}
		return Parsed{}, scratch, ErrUnterminatedFrontmatter
	}
	if typ.empty() {
		return Parsed{}, scratch, ErrMissingType
	}
	t, known := typeOf(typ.raw(data))
	if !known {
		return Parsed{}, scratch, fmt.Errorf("%w: %q", ErrUnknownType, typ.decode(data, ""))
	}

	// The body: trimmed, then cut to the window.
	bodyStart, bodyEnd := trimSpan(data, pos, len(data))
	if string(data[bodyStart:bodyEnd]) == emptyBody {
		bodyStart = bodyEnd
	}
	cut := windowEnd(data[bodyStart:bodyEnd], BodyWindow)
	truncated := cut < bodyEnd-bodyStart || !complete
	bodyEnd = bodyStart + cut

	// One allocation for everything that can be sliced without unescaping.
	s := string(data[:bodyEnd])
	p := Parsed{
		Type:          t,
		Description:   desc.decode(data, s),
		Body:          s[bodyStart:bodyEnd],
		BodyTruncated: truncated,
	}
	switch {
	case !name.empty():
		p.Title = name.decode(data, s)
	case !title.empty():
		p.Title = title.decode(data, s)
	default:
		p.Title = t.String()
	}
	return p, scratch, nil
}
