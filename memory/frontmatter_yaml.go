package memory

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// keyedNests reports that a `key: value` line (split by splitKey) takes the
// frontmatter out of the flat form: YAML would read a different key (one
// that is not plain, or not directly followed by ": "), or the value opens
// a YAML structure (block scalar, flow collection, anchor, alias, tag).
// known says the key is one of the four the parser looks for, which are
// plain. This runs on every line of every file, so it looks at a few
// bytes only.
func keyedNests(line, key, val []byte, known bool) bool {
	if n := len(key); n+1 < len(line) && line[n+1] != ' ' || line[n] != ':' {
		return true
	}
	if !known {
		if !isKeyStart(key[0]) {
			return true
		}
		for _, c := range key[1:] {
			if !isKeyByte(c) {
				return true
			}
		}
	}
	if len(val) > 0 {
		switch val[0] {
		case '[', '{', '&', '*', '!', '|', '>':
			return true
		}
	}
	return false
}

func isKeyStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isKeyByte(c byte) bool {
	return isKeyStart(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// nestKind is the nested block the flat reader is inside.
type nestKind uint8

const (
	nestNone  nestKind = iota
	nestMeta           // the indented lines of `metadata:`
	nestBlock          // the lines of a block scalar
)

// nesting tracks the two nested shapes Claude Code writes, which the flat
// reader takes without YAML (decision 0105): a `metadata:` mapping of
// indented `key: value` lines, and a block scalar (`>-`, `>`, `|-`, `|`)
// as the value of name, title or description, its lines all at one
// indentation, none blank, none ending in white space. Anything else that
// is indented goes to YAML.
type nesting struct {
	kind   nestKind
	indent int   // the indentation of the first nested line; 0 before it
	dst    *span // the block scalar's value (nestBlock)
	header span  // the block scalar's style (block, clip)
}

// blockHeader recognises the block scalar headers the flat reader takes.
func blockHeader(val []byte) (span, bool) {
	switch string(val) {
	case ">-":
		return span{block: '>'}, true
	case ">":
		return span{block: '>', clip: true}, true
	case "|-":
		return span{block: '|'}, true
	case "|":
		return span{block: '|', clip: true}, true
	}
	return span{}, false
}

// take reads one indented line (starting at offset start of data) of the
// current nested block, and reports whether the flat reader can: false
// sends the frontmatter to YAML.
func (n *nesting) take(data, line []byte, start int, metaType *span) bool {
	ind := 0
	for ind < len(line) && line[ind] == ' ' {
		ind++
	}
	if ind == len(line) || line[ind] == '\t' || ind != n.indent && n.indent != 0 {
		return false
	}
	n.indent = ind
	rest := line[ind:]
	if n.kind == nestMeta {
		key, val, vstart, has := splitKey(rest)
		if !has || keyedNests(rest, key, val, false) {
			return false
		}
		if string(key) == "type" {
			*metaType = valueSpan(val, start+ind+vstart)
		}
		return true
	}
	if c := rest[len(rest)-1]; c == ' ' || c == '\t' || !yamlPrintable(rest) {
		return false
	}
	if n.dst.empty() {
		*n.dst = n.header
		n.dst.start, n.dst.indent = start, ind
	}
	n.dst.end = start + len(line)
	return true
}

// blockText returns a block scalar's value: its lines without their
// indentation, joined by a space (folded) or a line break (literal), with
// a final line break when the header clips.
func (sp span) blockText(data []byte) string {
	sep := byte(' ')
	if sp.block == '|' {
		sep = '\n'
	}
	out := make([]byte, 0, sp.end-sp.start)
	for pos := sp.start; ; {
		line, next, ok := nextLine(data[:sp.end], pos)
		if !ok {
			break
		}
		if pos > sp.start {
			out = append(out, sep)
		}
		out = append(out, line[sp.indent:]...)
		pos = next
	}
	if sp.clip {
		out = append(out, '\n')
	}
	return string(out)
}

// yamlPrintable reports whether YAML accepts every character of b inside a
// single line: printable ASCII, and above it what YAML calls printable
// minus its line breaks (NEL, LS, PS). Tabs count as not printable here,
// to keep the agreement simple.
func yamlPrintable(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if !yamlPrintableRune(r) {
			return false
		}
		i += size
	}
	return true
}

// yamlPrintableRune reports a non-ASCII rune YAML accepts inside a line.
func yamlPrintableRune(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0xD7FF:
		return r != 0x2028 && r != 0x2029
	case r >= 0xE000 && r <= 0xFFFD:
		return r != 0xFEFF
	}
	return r >= 0x10000 && r <= utf8.MaxRune
}

// unkeyedNests reports that a line splitKey did not split takes the
// frontmatter out of the flat form: indented text, or a column-0 line
// without a colon. Blank lines and comments do not.
func unkeyedNests(line []byte) bool {
	if len(line) == 0 || line[0] == '#' {
		return false
	}
	for _, c := range line {
		if c != ' ' && c != '\t' {
			return true
		}
	}
	return false
}

// indented reports whether any non-blank line of fm starts with a space or
// a tab: the frontmatter nests, so only a YAML reading can be right.
func indented(fm []byte) bool {
	for pos := 0; ; {
		line, next, ok := nextLine(fm, pos)
		if !ok {
			return false
		}
		if len(line) > 0 && (line[0] == ' ' || line[0] == '\t') && len(bytes.TrimLeft(line, " \t")) > 0 {
			return true
		}
		pos = next
	}
}

// fields are the frontmatter values a Parsed is built from, as the YAML
// path reads them.
type fields struct {
	typ, metaType, name, title, desc string
}

// yamlFields parses a frontmatter (the text between the fences) as YAML
// and picks out the known keys. The parser builds one node per value and
// never expands an alias (a reference is one node pointing at its anchor),
// so a document of n bytes costs O(n) however it nests its aliases; the
// parser itself refuses nesting deeper than 10,000 levels, and the reader
// looks two levels deep at most (metadata.type). Frontmatter over
// ReadLimit bytes is refused before parsing, and so is one whose flow
// collections nest deeper than maxFlowDepth (the one shape on which the
// library's cost grows faster than the input).
func yamlFields(fm []byte) (fields, error) {
	if len(fm) > ReadLimit {
		return fields{}, ErrFrontmatterTooLong
	}
	if flowDepth(fm) > maxFlowDepth {
		return fields{}, fmt.Errorf("%w: flow collections nest deeper than %d levels", ErrInvalidYAML, maxFlowDepth)
	}
	var doc yaml.Node
	if err := decodeYAML(fm, &doc); err != nil {
		return fields{}, fmt.Errorf("%w: %v", ErrInvalidYAML, err)
	}
	if len(doc.Content) == 0 {
		return fields{}, nil // only comments and blank lines
	}
	top := deref(doc.Content[0])
	if top == nil || top.Kind != yaml.MappingNode {
		return fields{}, fmt.Errorf("%w: the frontmatter is not a mapping", ErrInvalidYAML)
	}
	var f fields
	for i := 0; i+1 < len(top.Content); i += 2 {
		k := deref(top.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode {
			continue
		}
		var dst *string
		switch k.Value {
		case "type":
			dst = &f.typ
		case "name":
			dst = &f.name
		case "title":
			dst = &f.title
		case "description":
			dst = &f.desc
		case "metadata":
			m := deref(top.Content[i+1])
			if m == nil || m.Kind != yaml.MappingNode {
				continue
			}
			for j := 0; j+1 < len(m.Content); j += 2 {
				if mk := deref(m.Content[j]); mk != nil && mk.Kind == yaml.ScalarNode && mk.Value == "type" {
					s, err := scalarText("metadata.type", m.Content[j+1])
					if err != nil {
						return fields{}, err
					}
					f.metaType = s
				}
			}
			continue
		default:
			continue
		}
		s, err := scalarText(k.Value, top.Content[i+1])
		if err != nil {
			return fields{}, err
		}
		*dst = s // a repeated key keeps its last value, as on the flat path
	}
	return f, nil
}

// maxFlowDepth bounds the nesting of flow collections the YAML path
// accepts. The library's scanner spends time proportional to the depth on
// every token inside a flow collection, so 8,000 `[` in a 16 KiB
// frontmatter cost as much as thousands of ordinary files; no frontmatter
// anyone writes nests flow collections deeper than a few levels.
const maxFlowDepth = 64

// flowDepth returns the deepest nesting of `[`/`{` in fm, counting
// brackets inside quotes and comments too: an over-estimate that only
// matters for text no one writes.
func flowDepth(fm []byte) int {
	depth, deepest := 0, 0
	for _, c := range fm {
		switch c {
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// decodeYAML parses YAML into a node tree. The library's own guards stop
// runaway input; a panic inside it (which would be a bug there) becomes a
// parse error here, never a crash of the scan.
func decodeYAML(data []byte, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parser panic: %v", r)
		}
	}()
	return yaml.Unmarshal(data, n)
}

// deref follows one alias to its anchored node.
func deref(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode {
		return n.Alias
	}
	return n
}

// scalarText returns a scalar's text whatever type YAML resolves it to
// (`name: 2026` is the title "2026", as on the flat path); a mapping or a
// sequence is ErrNotString.
func scalarText(key string, n *yaml.Node) (string, error) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("%w: %s", ErrNotString, key)
	}
	return n.Value, nil
}

// parsed builds a Parsed from YAML fields and the body after the closing
// fence at pos.
func (f fields) parsed(data []byte, pos int, complete bool) (Parsed, error) {
	t, err := noteType([]byte(f.typ), []byte(f.metaType))
	if err != nil {
		return Parsed{}, err
	}
	bodyStart, bodyEnd, truncated := body(data, pos, complete)
	p := Parsed{
		Type:          t,
		Description:   f.desc,
		Body:          string(data[bodyStart:bodyEnd]),
		BodyTruncated: truncated,
	}
	p.Title = noteTitle(t, f.name, f.title)
	return p, nil
}
