package score

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// usageMarkers are phrases of a document that restates how to call a tool,
// which the model already knows from the tool's schema. A title that ends
// in "usage" after a colon, a dash or a tool's full name ("Sentry
// get_issue_details: usage", "mcp__slack__post_message usage") is one too
// (see usageTitle).
var usageMarkers = [...]string{
	"tool usage", "usage reference", "parameter schema", "api docs", "failed call", "field mapping",
	"how to call",
}

// durableMarkers are phrases of a lesson worth keeping even when the tool is
// in use: a document that uses one of them in its prose is never filtered
// (see hasDurableMarker).
var durableMarkers = [...][]string{
	{"gotcha"}, {"workaround"}, {"warning"}, {"credential"}, {"escalation"}, {"owner"},
	{"ownership"}, {"known", "issue"},
}

// IsNoise reports whether the active-tool noise filter removes doc for q:
// the document mentions one of the recent tools (under any alias), reads
// like a usage reference, and carries no durable marker. Such a document is
// removed from both the deterministic and the model candidates.
func IsNoise(doc *memory.Document, q Query) bool {
	if len(q.aliases) == 0 {
		return false
	}
	text := noiseText(doc)
	return usageOnly(text) && mentionsTool(text, q.aliases)
}

// noiseText is the normalised text the filter reads (docText.filterText):
// the title, the description and the whole body the scan keeps, the same
// text the matcher reads (docs/decisions/0208-noise-markers.md).
func noiseText(doc *memory.Document) string {
	t := normalizedText(doc)
	return t.filterText()
}

// usageOnly reports that normalised filter text (title first, see
// docText.filterText) has a usage marker and no durable marker. Usage
// markers are compared on words, so "api-docs", "API docs" and
// "field_mapping" all count; durable markers must be words of the prose
// (see hasDurableMarker).
func usageOnly(text string) bool {
	usage := usageTitle(text)
	if !usage {
		words := markerWords(text)
		for _, m := range usageMarkers {
			if strings.Contains(words, m) {
				usage = true
				break
			}
		}
	}
	if !usage {
		return false
	}
	return !hasDurableMarker(text)
}

// usageTitle reports whether the first line of text (the title) ends in
// the word "usage" set off by a colon or a dash ("Sentry MCP
// get_issue_details: usage", "gh api – usage") or right after a tool's
// full name, one that holds a namespace separator "__" or "::"
// ("mcp__slack__post_message usage"). A title that merely ends in the
// word ("Redis memory usage", "cpu_time usage") is about something else.
func usageTitle(text string) bool {
	title, _, _ := strings.Cut(text, "\n")
	rest, ok := strings.CutSuffix(strings.TrimRight(title, " \t."), "usage")
	if !ok {
		return false
	}
	trimmed := strings.TrimRight(rest, " \t")
	for _, sep := range [...]string{":", "-", "–", "—"} {
		if strings.HasSuffix(trimmed, sep) {
			return true
		}
	}
	if len(trimmed) == len(rest) {
		return false // "…_usage": one word
	}
	last := trimmed[strings.LastIndexAny(trimmed, " \t")+1:]
	return strings.Contains(last, "__") || strings.Contains(last, "::")
}

// hasDurableMarker reports whether normalised text uses a durable marker
// as a word of its prose (docs/decisions/0208-noise-markers.md): the
// marker's words, each whole or with a plural -s ("warnings",
// "known issues"), outside code (`inline` spans and fenced blocks), and
// not as a name: not joined to other word characters by _ - . / or ::
// (owner_id, repo-owner, obj.owner), not quoted, and not followed by
// : = or ( as a parameter is in a schema ("owner: string", "owner (str)").
// A usage note that lists a tool parameter called owner is not a note
// about who owns something.
func hasDurableMarker(text string) bool {
	type word struct {
		text       string
		start, end int
	}
	var words []word
	inFence, inCode := false, false
	for i := 0; i < len(text); {
		if strings.HasPrefix(text[i:], "```") && (i == 0 || text[i-1] == '\n') {
			inFence = !inFence
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '`':
			inCode = !inCode
		case r == '\n':
			inCode = false // an inline span does not cross lines
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			start := i
			for i < len(text) {
				r, size := utf8.DecodeRuneInString(text[i:])
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				i += size
			}
			if !inFence && !inCode {
				words = append(words, word{text[start:i], start, i})
			} else {
				words = append(words, word{}) // breaks a phrase
			}
			continue
		}
		i += size
	}
	is := func(w, m string) bool { return w == m || w == m+"s" }
	for i := range words {
		for _, m := range durableMarkers {
			if i+len(m) > len(words) {
				continue
			}
			ok := true
			for k, part := range m {
				ok = ok && is(words[i+k].text, part)
			}
			if ok && inProse(text, words[i].start, words[i+len(m)-1].end) {
				return true
			}
		}
	}
	return false
}

// inProse reports whether text[start:end] stands as prose rather than as
// a name or a parameter (see hasDurableMarker).
func inProse(text string, start, end int) bool {
	if start > 0 {
		switch text[start-1] {
		case '_', '-', '.', '/', ':', '"', '\'', '$', '@', '#':
			return false
		}
	}
	if end < len(text) {
		switch text[end] {
		case '_', '-', '/', '"', '\'':
			return false
		case ':': // a heading's "Gotcha: …", not owner:: or "owner: string"
			if !strings.HasPrefix(text[end:], ": ") || paramColon(text, end) {
				return false
			}
		case '.':
			if end+1 < len(text) && (unicode.IsLetter(rune(text[end+1])) || text[end+1] == '_') {
				return false // owner.login
			}
		}
	}
	rest := strings.TrimLeft(text[end:], " \t")
	return !strings.HasPrefix(rest, "(") && !strings.HasPrefix(rest, "=")
}

// paramColon reports whether the colon at text[i] ends a parameter name in
// a schema line ("owner: string", "- owner: the repository owner") rather
// than a heading of prose ("Gotcha: labels must exist"): what follows is a
// type name, or the name starts its line after a list dash.
func paramColon(text string, i int) bool {
	rest := strings.TrimLeft(text[i+1:], " \t")
	for _, t := range [...]string{"string", "str", "int", "integer", "number", "bool", "boolean",
		"array", "object", "list", "enum", "required", "optional", "float", "null"} {
		if strings.HasPrefix(rest, t) {
			after := rest[len(t):]
			if after == "" || !unicode.IsLetter(rune(after[0])) {
				return true
			}
		}
	}
	return false
}

// markerWords turns every run of characters other than letters and digits
// into one space.
func markerWords(text string) string {
	var b strings.Builder
	b.Grow(len(text) + 2)
	b.WriteByte(' ')
	space := true
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
			continue
		}
		if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// mentionsTool reports whether normalised text contains one of aliases as a
// whole name: the characters around it are not letters, digits or '_', so
// the tool "ls" is not found inside "tools" — except that a qualifier
// ("server__" or "server::") may stand before it, since a document may name
// the tool by its full MCP name.
func mentionsTool(text string, aliases []string) bool {
	for _, a := range aliases {
		for from := 0; from < len(text); {
			i := strings.Index(text[from:], a)
			if i < 0 {
				break
			}
			i += from
			end := i + len(a)
			if nameBoundaryBefore(text, i) && nameBoundaryAfter(text, end) {
				return true
			}
			_, size := utf8.DecodeRuneInString(text[i:])
			from = i + size
		}
	}
	return false
}

func isNameRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func nameBoundaryBefore(text string, i int) bool {
	if i == 0 || strings.HasSuffix(text[:i], "__") || strings.HasSuffix(text[:i], "::") {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return !isNameRune(r)
}

func nameBoundaryAfter(text string, end int) bool {
	if end >= len(text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(text[end:])
	return !isNameRune(r)
}

// toolAliases expands recent tool names into the names a document may use
// for them: "mcp__server__tool" gives itself, "server__tool", "tool" and
// "server::tool"; "server::tool" gives itself, "tool" and "server__tool".
// Names are normalised; the first MaxRecentTools distinct names count.
func toolAliases(tools []string) []string {
	var out []string
	seenTool := make(map[string]struct{})
	seen := make(map[string]struct{})
	add := func(a string) {
		if strings.Trim(a, "_:") == "" {
			return
		}
		if _, ok := seen[a]; ok {
			return
		}
		seen[a] = struct{}{}
		out = append(out, a)
	}
	for _, t := range tools {
		name := strings.TrimSpace(Normalize(t))
		if name == "" {
			continue
		}
		if _, ok := seenTool[name]; ok {
			continue
		}
		if len(seenTool) == MaxRecentTools {
			break
		}
		seenTool[name] = struct{}{}
		add(name)
		parts := splitToolName(name)
		for i := range parts {
			tail := parts[i:]
			add(strings.Join(tail, "__"))
			add(strings.Join(tail, "::"))
		}
	}
	return out
}

// splitToolName splits on the "__" and "::" separators of MCP names,
// dropping the "mcp" namespace marker and empty parts.
func splitToolName(name string) []string {
	name = strings.ReplaceAll(name, "::", "__")
	var parts []string
	for p := range strings.SplitSeq(name, "__") {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) > 1 && parts[0] == "mcp" {
		parts = parts[1:]
	}
	return parts
}
