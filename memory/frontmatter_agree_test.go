package memory

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// This file defines, for the tests, where the flat reading and YAML agree:
// a flat frontmatter all of whose lines are formSafe. The parser itself
// never needs the distinction (both kinds of flat block are read line by
// line), so it does not pay for it.

// form classifies one line of a flat frontmatter for the agreement
// property between the flat reading and YAML (decision 0105): the tests
// call it, the parser does not need it.
type form uint8

const (
	// formSafe: blank, a comment, or a column-0 `key: value` that YAML
	// reads as the same key and the same string.
	formSafe form = iota
	// formUnsafe: a column-0 line the line-by-line reading takes in the
	// dialect of decision 0104, which YAML reads differently or rejects.
	formUnsafe
	// formNested: anything else — indentation, a key that is not plain, a
	// value that opens a block scalar, a flow collection, an anchor, an
	// alias or a tag. Only YAML reads it right.
	formNested
)

// lineForm classifies a frontmatter line (without its LF) that splitKey
// has split into key and val (has reports a `key: value` line).
func lineForm(line, key, val []byte, has bool) form {
	if !has {
		return unkeyedForm(line)
	}
	// splitKey found a colon after a column-0 key; YAML reads the same key
	// only when it is plain and directly followed by the colon, and the
	// same value only when a space (or the end) follows the colon.
	if !isKeyStart(key[0]) {
		return formNested
	}
	for _, c := range key[1:] {
		if !isKeyByte(c) {
			return formNested
		}
	}
	if n := len(key); n+1 < len(line) && line[n+1] != ' ' || line[n] != ':' {
		return formNested
	}
	return valueForm(val)
}

// unkeyedForm classifies a line splitKey did not split: blank, a comment,
// indented, or a column-0 line without a colon.
func unkeyedForm(line []byte) form {
	if len(line) == 0 {
		return formSafe
	}
	switch line[0] {
	case '#':
		if !yamlPrintable(line) {
			return formUnsafe
		}
		return formSafe
	case ' ', '\t':
		tab := false
		for _, c := range line {
			switch c {
			case ' ':
			case '\t':
				tab = true
			default:
				return formNested
			}
		}
		if tab {
			return formUnsafe // a blank line with a tab
		}
		return formSafe // a blank line of spaces
	}
	return formNested
}

// valueForm classifies a trimmed value of a `key: value` line in one pass.
func valueForm(v []byte) form {
	if len(v) == 0 {
		return formSafe
	}
	switch v[0] {
	case '[', '{', '&', '*', '!', '|', '>':
		return formNested
	case '"', '\'':
		return quotedForm(v)
	case '-', '?', ':', ',', ']', '}', '#', '%', '@', '`':
		return formUnsafe
	}
	for i := 0; i < len(v); {
		// Eight plain ASCII bytes at a time: most values are words.
		if i+8 <= len(v) && plain8(binary.LittleEndian.Uint64(v[i:])) {
			i += 8
			continue
		}
		c := v[i]
		switch {
		case c >= 0x20 && c < 0x7f && c != '#' && c != ':':
		case c == '#':
			if i > 0 && v[i-1] == ' ' { // a comment to YAML
				return formUnsafe
			}
		case c == ':':
			if i+1 == len(v) || v[i+1] == ' ' { // a mapping to YAML
				return formUnsafe
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(v[i:])
			if !yamlPrintableRune(r) {
				return formUnsafe
			}
			i += size
			continue
		default:
			return formUnsafe // a control character or a tab
		}
		i++
	}
	return formSafe
}

// SWAR constants: a byte of ones in every lane, and every lane's high bit.
const (
	lanes1 = 0x0101010101010101
	lanes8 = 0x8080808080808080
)

// plain8 reports that the eight bytes of w (little-endian) are printable
// ASCII other than '#' and ':', the bytes valueForm needs no second look
// at. Each test flags a lane whose byte is below a bound or equal to a
// value, the usual bit tricks on 64-bit words.
func plain8(w uint64) bool {
	if w&lanes8 != 0 {
		return false // a byte at or above 0x80
	}
	below20 := (w - lanes1*0x20) & ^w & lanes8
	return below20|zeroLane(w^(lanes1*'#'))|zeroLane(w^(lanes1*':'))|zeroLane(w^(lanes1*0x7f)) == 0
}

// zeroLane flags (in its high bit) a lane of x that is zero.
func zeroLane(x uint64) uint64 { return (x - lanes1) & ^x & lanes8 }

// quotedForm classifies a quoted value: safe when it is closed, followed by
// nothing, and uses only the escapes both readings share (\" \\ \n \t in
// double quotes, ” in single quotes).
func quotedForm(v []byte) form {
	q := v[0]
	if !yamlPrintable(v) {
		return formUnsafe
	}
	for i := 1; i < len(v); i++ {
		switch {
		case q == '"' && v[i] == '\\':
			if i+1 >= len(v) {
				return formUnsafe
			}
			switch v[i+1] {
			case '"', '\\', 'n', 't':
				i++
			default:
				return formUnsafe
			}
		case v[i] == q && q == '\'' && i+1 < len(v) && v[i+1] == '\'':
			i++
		case v[i] == q:
			if i != len(v)-1 {
				return formUnsafe // text after the closing quote
			}
			return formSafe
		}
	}
	return formUnsafe // unterminated
}

// flatSafe reports that Parse reads data's frontmatter on the flat path
// and that YAML would read every line of it the same way: the inputs on
// which the agreement property must hold. Lines of a `metadata:` block
// must be safe after their indentation; lines of a block scalar are safe
// whenever the flat reader takes them.
func flatSafe(data []byte) bool {
	if _, r, _, _ := parseRoute(data, true, nil, false); r != routeFlat {
		return false
	}
	data = bytes.TrimPrefix(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\uFEFF"))
	line, pos, ok := nextLine(data, 0)
	if !ok || !isFence(line) {
		return false
	}
	mode := nestNone
	for ok {
		line, pos, ok = nextLine(data, pos)
		if isFence(line) {
			return true
		}
		if len(line) > 0 && line[0] == ' ' && mode != nestNone {
			if mode == nestMeta {
				rest := bytes.TrimLeft(line, " ")
				key, val, _, has := splitKey(rest)
				if lineForm(rest, key, val, has) != formSafe {
					return false
				}
			}
			continue
		}
		mode = nestNone
		key, val, _, has := splitKey(line)
		if has {
			switch k := string(key); {
			case k == "metadata" && len(val) == 0:
				mode = nestMeta
			case k == "name" || k == "title" || k == "description":
				// YAML reads a block header only after "key: "; the flat
				// reader also takes "key:|", which YAML reads as a plain
				// scalar, so such a line is not safe (lineForm says so).
				if _, ok := blockHeader(val); ok && lineForm(line, key, []byte("x"), has) == formSafe {
					mode = nestBlock
					continue
				}
			}
		}
		if lineForm(line, key, val, has) != formSafe {
			return false
		}
	}
	return true
}
