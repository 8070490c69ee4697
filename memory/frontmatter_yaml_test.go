package memory

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestParseYAML covers every YAML form issue 11 lists, each as Claude Code
// or a person would write it, and the two new skip errors.
func TestParseYAML(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Parsed
		err  error
	}{
		{
			name: "Claude Code topic file: nested type, folded description, links",
			in: "---\nname: release-freeze\ndescription: >-\n  Merge freeze for the mobile release cut,\n  starting 2026-03-05\nmetadata:\n  type: project\n---\n" +
				"Body, with [[other-memory]] links.\n",
			want: Parsed{Type: TypeProject, Title: "release-freeze",
				Description: "Merge freeze for the mobile release cut, starting 2026-03-05",
				Body:        "Body, with [[other-memory]] links."},
		},
		{
			name: "folded with keep chomping",
			in:   "---\ntype: user\ndescription: >+\n  a\n  b\n\n---\n",
			want: Parsed{Type: TypeUser, Title: "user", Description: "a b\n\n"},
		},
		{
			name: "folded with clip chomping",
			in:   "---\ntype: user\ndescription: >\n  a\n  b\n\n---\n",
			want: Parsed{Type: TypeUser, Title: "user", Description: "a b\n"},
		},
		{
			name: "literal block",
			in:   "---\ntype: feedback\ndescription: |\n  line one\n  line two\n---\n",
			want: Parsed{Type: TypeFeedback, Title: "feedback", Description: "line one\nline two\n"},
		},
		{
			name: "literal block, strip chomping, explicit indent",
			in:   "---\ntype: feedback\ndescription: |2-\n    indented\n  base\n---\n",
			want: Parsed{Type: TypeFeedback, Title: "feedback", Description: "  indented\nbase"},
		},
		{
			name: "quoted keys",
			in:   "---\n\"name\": Quoted key\n'type': reference\n---\n",
			want: Parsed{Type: TypeReference, Title: "Quoted key"},
		},
		{
			name: "comments between and after values",
			in:   "---\n# written by hand\nname: Deploy # the checklist\nmetadata:\n  # nested comment\n  type: reference # trailing\n---\n",
			want: Parsed{Type: TypeReference, Title: "Deploy"},
		},
		{
			name: "flow sequence and flow map are ignored keys",
			in:   "---\ntags: [deploy, canary]\nextra: {a: 1, b: [2, 3]}\nname: Deploy\ntype: reference\n---\n",
			want: Parsed{Type: TypeReference, Title: "Deploy"},
		},
		{
			name: "anchors and aliases",
			in:   "---\nname: &n Shared title\ntitle: *n\ndescription: *n\nmetadata:\n  type: &t user\n---\n",
			want: Parsed{Type: TypeUser, Title: "Shared title", Description: "Shared title"},
		},
		{
			name: "multi-line plain scalar",
			in:   "---\ntype: project\ndescription: the billing service\n  retries callbacks\n\n  three times\n---\n",
			want: Parsed{Type: TypeProject, Title: "project", Description: "the billing service retries callbacks\nthree times"},
		},
		{
			name: "multi-line double-quoted scalar",
			in:   "---\ntype: project\nname: \"two\n  lines \\u00e9\"\n---\n",
			want: Parsed{Type: TypeProject, Title: "two lines é"},
		},
		{
			name: "flat type wins over metadata.type",
			in:   "---\ntype: user\nmetadata:\n  type: project\n---\n",
			want: Parsed{Type: TypeUser, Title: "user"},
		},
		{
			name: "metadata that is not a mapping is ignored",
			in:   "---\ntype: user\nmetadata: [a]\nname:\n  Indented\n---\n",
			want: Parsed{Type: TypeUser, Title: "Indented"},
		},
		{
			name: "non-string scalars are read as their text",
			in:   "---\nname: 2026\ndescription: true\nmetadata:\n  type: project\n---\n",
			want: Parsed{Type: TypeProject, Title: "2026", Description: "true"},
		},
		{
			name: "tags are dropped, text kept",
			in:   "---\nname: !!str 5\nmetadata: {type: reference}\n---\n",
			want: Parsed{Type: TypeReference, Title: "5"},
		},
		{
			name: "CRLF Claude file",
			in:   "---\r\nname: win\r\ndescription: >-\r\n  a\r\n  b\r\nmetadata:\r\n  type: user\r\n---\r\nbody\r\n",
			want: Parsed{Type: TypeUser, Title: "win", Description: "a b", Body: "body"},
		},
		{name: "nested type missing", in: "---\nname: x\nmetadata:\n  owner: sam\n---\n", err: ErrMissingType},
		{name: "nested type unknown", in: "---\nmetadata:\n  type: note\n---\n", err: ErrUnknownType},
		{name: "name is a sequence", in: "---\nname: [a, b]\ntype: user\n---\n", err: ErrNotString},
		{name: "description is a mapping", in: "---\ntype: user\ndescription:\n  text: x\n---\n", err: ErrNotString},
		{name: "nested type is a mapping", in: "---\nmetadata:\n  type:\n    a: b\n---\n", err: ErrNotString},
		{name: "alias to a sequence", in: "---\nx: &a [1]\ntype: *a\n---\n", err: ErrNotString},
		{name: "bad indentation", in: "---\nmetadata:\n  type: user\n bad: x\n---\n", err: ErrInvalidYAML},
		{name: "unknown alias in a nested file", in: "---\nmetadata:\n  type: *nope\n---\n", err: ErrInvalidYAML},
		{name: "tab indentation", in: "---\nmetadata:\n\ttype: user\n---\n", err: ErrInvalidYAML},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Parse, and the YAML reader alone: Claude Code's own shapes
			// take the flat path, and both must read every form alike.
			for _, yamlOnly := range []bool{false, true} {
				got, _, _, err := parseRoute([]byte(tt.in), true, nil, yamlOnly)
				if !errors.Is(err, tt.err) {
					t.Fatalf("yamlOnly=%v: error = %v, want %v", yamlOnly, err, tt.err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("yamlOnly=%v: mismatch (-want +got):\n%s", yamlOnly, diff)
				}
			}
		})
	}
}

// TestParseLineDialect pins the column-0 blocks decision 0104 reads line by
// line although YAML would read them differently or not at all: each keeps
// its 0104 reading (which is also Qwen Code's), and the test shows what the
// YAML reading would have been.
func TestParseLineDialect(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     Parsed
		yamlWant Parsed
		yamlErr  error
	}{
		{
			name:     "bare # is text",
			in:       "---\ndescription: fixed in #412 today\ntype: user\n---\n",
			want:     Parsed{Type: TypeUser, Title: "user", Description: "fixed in #412 today"},
			yamlWant: Parsed{Type: TypeUser, Title: "user", Description: "fixed in"},
		},
		{
			name:    "colon-space in a bare value",
			in:      "---\ndescription: note: retry twice\ntype: user\n---\n",
			want:    Parsed{Type: TypeUser, Title: "user", Description: "note: retry twice"},
			yamlErr: ErrInvalidYAML,
		},
		{
			name:    "unknown escape kept",
			in:      "---\nname: \"C:\\path\"\ntype: user\n---\n",
			want:    Parsed{Type: TypeUser, Title: `C:\path`},
			yamlErr: ErrInvalidYAML,
		},
		{
			name:    "unterminated quote is bare",
			in:      "---\nname: \"half\ntype: project\n---\n",
			want:    Parsed{Type: TypeProject, Title: `"half`},
			yamlErr: ErrInvalidYAML,
		},
		{
			name:    "a line without a colon is ignored",
			in:      "---\ntype: user\njust a note\n---\n",
			want:    Parsed{Type: TypeUser, Title: "user"},
			yamlErr: ErrInvalidYAML,
		},
		{
			name:    "a value starting with * is text",
			in:      "---\nname: **bold** idea\ntype: user\n---\n",
			want:    Parsed{Type: TypeUser, Title: "**bold** idea"},
			yamlErr: ErrInvalidYAML,
		},
		{
			name:     "a value starting with - is text",
			in:       "---\nname: -5 degrees\ntype: user\n---\n",
			want:     Parsed{Type: TypeUser, Title: "-5 degrees"},
			yamlWant: Parsed{Type: TypeUser, Title: "-5 degrees"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, r, _, err := parseRoute([]byte(tt.in), true, nil, false)
			if err != nil || r == routeYAML || flatSafe([]byte(tt.in)) {
				t.Fatalf("route %d, flat-safe %v, error %v; want a line reading outside the agreement, without error",
					r, flatSafe([]byte(tt.in)), err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("line reading (-want +got):\n%s", diff)
			}
			y, _, _, yerr := parseRoute([]byte(tt.in), true, nil, true)
			if !errors.Is(yerr, tt.yamlErr) {
				t.Fatalf("YAML reading error = %v, want %v", yerr, tt.yamlErr)
			}
			if diff := cmp.Diff(tt.yamlWant, y); diff != "" {
				t.Errorf("YAML reading (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLineForm(t *testing.T) {
	tests := []struct {
		line string
		want form
	}{
		{"", formSafe},
		{"   ", formSafe},
		{" \t", formUnsafe},
		{"# comment: with # marks", formSafe},
		{"#\x7f", formUnsafe},
		{"name: Deploy checklist", formSafe},
		{"name:", formSafe},
		{"name:   spaced   ", formSafe},
		{"some_key-2.x: v", formSafe},
		{"name: a#b c:d", formSafe},
		{"name: 漢字 ok", formSafe},
		{"name: \"say \\\"hi\\\" \\\\ \\n \\t\"", formSafe},
		{"name: 'it''s'", formSafe},
		{"name: ''", formSafe},
		{"name: a #b", formUnsafe},
		{"name: a: b", formUnsafe},
		{"name: ends:", formUnsafe},
		{"name: \"x\" # c", formUnsafe},
		{"name: \"\\x41\"", formUnsafe},
		{"name: \"open", formUnsafe},
		{"name: 'open", formUnsafe},
		{"name: \"", formUnsafe},
		{"name: -x", formUnsafe},
		{"name: #x", formUnsafe},
		{"name: @x", formUnsafe},
		{"name: a\tb", formUnsafe},
		{"name: a\u0085b", formUnsafe},
		{"name: a\u2028b", formUnsafe},
		{"name: a\ufeffb", formUnsafe},
		{"name: [a]", formNested},
		{"name: {a: 1}", formNested},
		{"name: &a x", formNested},
		{"name: *a", formNested},
		{"name: !!str x", formNested},
		{"name: >-", formNested},
		{"name: |", formNested},
		{"  type: user", formNested},
		{"\ttype: user", formNested},
		{"\"name\": x", formNested},
		{"name : x", formNested},
		{"name:x", formNested},
		{"no colon here", formNested},
		{"1abc: x", formNested},
		{"- item", formNested},
	}
	for _, tt := range tests {
		line := []byte(tt.line)
		key, val, _, has := splitKey(line)
		if got := lineForm(line, key, val, has); got != tt.want {
			t.Errorf("lineForm(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}

// TestParseHostileYAML feeds documents built to blow up a naive YAML
// reader. Each must end with a result or a typed error (no panic, no
// hang) within the frontmatter size cap; BenchmarkParseHostile reports
// what they cost.
func TestParseHostileYAML(t *testing.T) {
	for _, h := range hostileDocs() {
		t.Run(h.name, func(t *testing.T) {
			if len(h.doc) > ReadLimit+64 {
				t.Fatalf("hostile document of %d bytes is over the read limit", len(h.doc))
			}
			_, err := Parse([]byte(h.doc))
			if !errors.Is(err, h.err) {
				t.Errorf("error = %v, want %v", err, h.err)
			}
		})
	}
}

type hostile struct {
	name string
	doc  string
	err  error
}

// hostileDocs are frontmatters within ReadLimit that would cost a reader
// which expands aliases or recurses without a bound far more than their
// size.
func hostileDocs() []hostile {
	// Billion laughs: each level names the one below ten times.
	var laughs strings.Builder
	laughs.WriteString("---\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 12; i++ {
		fmt.Fprintf(&laughs, "l%d: &l%d [", i, i)
		for j := range 10 {
			if j > 0 {
				laughs.WriteString(", ")
			}
			fmt.Fprintf(&laughs, "*l%d", i-1)
		}
		laughs.WriteString("]\n")
	}
	laughs.WriteString("metadata:\n  type: user\nname: *l11\n---\n")

	// Many aliases to one anchor: the library's own decoder would count
	// them as excessive aliasing; a node tree keeps one node each.
	var aliases strings.Builder
	aliases.WriteString("---\na: &a x\nmetadata:\n  type: user\nz: [")
	for aliases.Len() < ReadLimit-40 {
		aliases.WriteString("*a, ")
	}
	aliases.WriteString("*a]\n---\n")

	deepFlow := "---\nmetadata:\n  type: user\nx: " + strings.Repeat("[", 8000) + strings.Repeat("]", 8000) + "\n---\n"
	deepOpen := "---\nx: " + strings.Repeat("[", 16000) + "\n---\n"
	var deepBlock strings.Builder
	deepBlock.WriteString("---\nmetadata:\n  type: user\n")
	for i := 0; deepBlock.Len() < ReadLimit-300; i++ {
		fmt.Fprintf(&deepBlock, "%sk%d:\n", strings.Repeat(" ", i), i)
	}
	deepBlock.WriteString("---\n")
	var peer strings.Builder
	peer.WriteString("---\nmetadata:\n  type: user\n")
	for i := 0; peer.Len() < ReadLimit-40; i++ {
		fmt.Fprintf(&peer, "  key%d: an ordinary value\n", i)
	}
	peer.WriteString("---\n")
	return []hostile{
		// The peer: an ordinary nested frontmatter of the same size, what
		// the size cap allows any file to cost.
		{"peer ordinary 16 KiB", peer.String(), nil},
		{"billion laughs", laughs.String(), ErrNotString}, // name is an alias to a sequence
		{"thousands of aliases", aliases.String(), nil},
		{"deep flow nesting", deepFlow, ErrInvalidYAML},
		// Column-0 lines YAML rejects are read line by line (decision 0104).
		{"unclosed deep flow", deepOpen, ErrMissingType},
		{"deep block nesting", deepBlock.String(), nil},
	}
}

func BenchmarkParseHostile(b *testing.B) {
	for _, h := range hostileDocs() {
		data := []byte(h.doc)
		b.Run(h.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Parse(data)
			}
		})
	}
}

// flatValue draws a value for a flat `key: value` line: bare, double- or
// single-quoted, from an alphabet rich in the characters where YAML and the
// line reading could part ways.
func flatValue(t *rapid.T, label string) string {
	chars := rapid.SampledFrom([]string{
		"a", "z", "Q", "7", " ", "  ", "#", ":", "-", "'", "\"", "\\", "\\n", "\\t", "\\x", "[", "]", "{", "}",
		",", "&", "*", "!", "|", ">", "?", "%", "@", "`", "~", "é", "漢", "😀", "\u00a0", "\u0085", "\u2028",
		"\t", "\ufeff", "null", "true", "1.5", "0x1F", ".inf", "---", "...",
	})
	text := strings.Join(rapid.SliceOfN(chars, 0, 8).Draw(t, label+"-chars"), "")
	switch rapid.IntRange(0, 2).Draw(t, label+"-quote") {
	case 1:
		return `"` + text + `"`
	case 2:
		return "'" + text + "'"
	}
	return text
}

// safeValue draws a value that is always of the safe flat form.
func safeValue(t *rapid.T, label string) string {
	word := rapid.StringMatching(`[a-zA-Z0-9][a-zA-Z0-9 .,/()éü漢字]{0,20}[a-zA-Z0-9]`).Draw(t, label)
	switch rapid.IntRange(0, 2).Draw(t, label+"-quote") {
	case 1:
		return `"` + word + ` \"q\" \\ \n"`
	case 2:
		return "'" + word + " ''q'''"
	}
	return word
}

// flatDoc draws a topic file whose frontmatter is column-0 `key: value`
// lines, comments and blank lines. allSafe reports that every value came
// from safeValue.
func flatDoc(t *rapid.T) (doc string, allSafe bool) {
	keys := rapid.SampledFrom([]string{"type", "name", "title", "description", "owner", "tags", "x_1"})
	types := rapid.SampledFrom([]string{"user", "feedback", "project", "reference", "note", "", "User"})
	n := rapid.IntRange(0, 7).Draw(t, "lines")
	var b strings.Builder
	b.WriteString("---\n")
	allSafe = true
	for i := range n {
		label := fmt.Sprintf("line%d", i)
		switch rapid.IntRange(0, 11).Draw(t, label+"-kind") {
		case 10:
			// A metadata block as Claude Code writes it.
			ind := strings.Repeat(" ", rapid.IntRange(1, 4).Draw(t, label+"-indent"))
			b.WriteString("metadata:\n")
			for j := range rapid.IntRange(0, 3).Draw(t, label+"-metalines") {
				sub := fmt.Sprintf("%s-%d", label, j)
				if rapid.Bool().Draw(t, sub+"-istype") {
					b.WriteString(ind + "type: " + types.Draw(t, sub+"-type") + "\n")
				} else {
					b.WriteString(ind + keys.Draw(t, sub+"-key") + ": " + safeValue(t, sub) + "\n")
				}
			}
		case 11:
			// A block scalar as Claude Code writes descriptions.
			k := rapid.SampledFrom([]string{"name", "title", "description"}).Draw(t, label+"-bkey")
			h := rapid.SampledFrom([]string{">-", ">", "|-", "|"}).Draw(t, label+"-header")
			ind := strings.Repeat(" ", rapid.IntRange(1, 4).Draw(t, label+"-indent"))
			b.WriteString(k + ": " + h + "\n")
			for j := range rapid.IntRange(0, 3).Draw(t, label+"-blines") {
				text := rapid.StringMatching(`[a-zA-Z0-9#:'"\[\]{}*&!|>@%-][a-zA-Z0-9 #:'"\[\],{}*&!|>@%.é漢-]{0,30}[a-zA-Z0-9.#:'"\]}]`).Draw(t, fmt.Sprintf("%s-b%d", label, j))
				b.WriteString(ind + text + "\n")
			}
		case 0:
			b.WriteString("# " + safeValue(t, label) + "\n")
		case 1:
			b.WriteString("\n")
		case 2, 3:
			b.WriteString("type: " + types.Draw(t, label+"-type") + "\n")
		case 4, 5, 6:
			b.WriteString(keys.Draw(t, label+"-key") + ": " + safeValue(t, label) + "\n")
		default:
			b.WriteString(keys.Draw(t, label+"-key") + ": " + flatValue(t, label) + "\n")
			allSafe = false
		}
	}
	b.WriteString("---\n" + rapid.StringMatching(`[a-z \n\[\]]{0,40}`).Draw(t, "body"))
	return b.String(), allSafe
}

// agree checks that, where the flat path read data, the YAML path reads
// the same Parsed with an error of the same kind.
func agree(t interface{ Fatalf(string, ...any) }, data []byte, complete bool) {
	fast, r, _, ferr := parseRoute(data, complete, nil, false)
	if r != routeFlat || !flatSafe(data) {
		return
	}
	y, _, _, yerr := parseRoute(data, complete, nil, true)
	if ferr != nil || yerr != nil {
		if skipFor(ferr) != skipFor(yerr) || (ferr == nil) != (yerr == nil) {
			t.Fatalf("flat path error %v, YAML path error %v on %q", ferr, yerr, data)
		}
		return
	}
	if diff := cmp.Diff(fast, y); diff != "" {
		t.Fatalf("flat and YAML readings differ on %q (-flat +yaml):\n%s", data, diff)
	}
}

// TestFlatAgreesWithYAML is the equivalence property of issue 11: on every
// frontmatter the flat path accepts, the YAML path gives the same Parsed.
// Safe lines must take the flat path, so the property is never vacuous.
func TestFlatAgreesWithYAML(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc, allSafe := flatDoc(t)
		_, r, _, _ := parseRoute([]byte(doc), true, nil, false)
		if allSafe && (r != routeFlat || !flatSafe([]byte(doc))) {
			t.Fatalf("a frontmatter of safe lines took route %d:\n%s", r, doc)
		}
		agree(t, []byte(doc), true)
		agree(t, []byte(doc), false)
	})
}

// FuzzFlatAgreesWithYAML is the same property over arbitrary bytes.
func FuzzFlatAgreesWithYAML(f *testing.F) {
	for _, s := range []string{
		"---\nname: Deploy\ndescription: how we ship\ntype: reference\n---\nbody\n",
		"---\nname: \"a \\\"b\\\" \\\\ \\n\"\ntype: user\n---\n",
		"---\nname: 'it''s'\n# note\n\ntitle: x y z\ntype: feedback\n---\n",
		"---\nname: 2026\ndescription: true\ntype: project\n---\n",
		"---\nname:\ntype: user\ntype: project\n---\n",
		"---\nname: a#b\ndescription: https://x.example:8080/y\ntype: user\n---\n",
		"---\nname: release-freeze\ndescription: >-\n  Merge freeze for the mobile release cut,\n  starting 2026-03-05\nmetadata:\n  type: project\n---\nBody [[x]]\n",
		"---\ndescription: |\n   a: b #c\n   d\nmetadata:\n    owner: sam\n    type: user\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, data, true)
	})
}

// FuzzYAMLFrontmatter drives the YAML path with arbitrary bytes: a result
// that meets every Parsed invariant or a typed error, never a panic.
func FuzzYAMLFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\nname: release-freeze\ndescription: >-\n  Merge freeze for the mobile release cut,\n  starting 2026-03-05\nmetadata:\n  type: project\n---\nBody, with [[other-memory]] links.\n",
		"---\ndescription: |+\n  keep\n\n\"name\": q\nmetadata: {type: user}\n---\n",
		"---\nname: &n x\ntitle: *n\ntags: [a, {b: c}]\nmetadata:\n  type: &t user\n---\n",
		"---\ntype: project\ndescription: plain\n  continued\n---\n",
		"---\nx: &a [1, *a]\ntype: user\n---\n",
		"---\nmetadata:\n\ttype: user\n---\n",
		"---\n? complex key\n: value\ntype: user\n---\n",
		"---\n%YAML 1.2\ntype: user\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, _, _, err := parseRoute(data, true, nil, true)
		if err == nil {
			checkParsed(t, p)
			return
		}
		if skipFor(err) == SkipUnreadable {
			t.Errorf("untyped error %v", err)
		}
	})
}

// TestPlain8 holds the word-at-a-time test against the byte-wise rule on
// every byte value in every lane.
func TestPlain8(t *testing.T) {
	base := []byte("abcdefgh")
	for lane := range 8 {
		for c := range 256 {
			w := append([]byte(nil), base...)
			w[lane] = byte(c)
			want := c >= 0x20 && c < 0x7f && c != '#' && c != ':'
			if got := plain8(binary.LittleEndian.Uint64(w)); got != want {
				t.Errorf("plain8(%q) = %v, want %v", w, got, want)
			}
		}
	}
}
