package score

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// usageMarkers are phrases of a document that restates how to call a tool,
// which the model already knows from the tool's schema.
var usageMarkers = [...]string{
	"tool usage", "usage reference", "parameter schema", "api docs", "failed call", "field mapping",
}

// durableMarkers are phrases of a lesson worth keeping even when the tool is
// in use: a document with one of them is never filtered.
var durableMarkers = [...]string{
	"gotcha", "workaround", "warning", "credential", "escalation", "owner", "ownership", "known issue",
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

// noiseText is the normalised text the filter reads: what a prompt would
// show of the document.
func noiseText(doc *memory.Document) string {
	return Normalize(doc.Title) + "\n" + Normalize(doc.Description) + "\n" + Normalize(BodyWindow(doc.Body))
}

// usageOnly reports that normalised text has a usage marker and no durable
// marker. Markers are compared on words, so "api-docs", "API docs" and
// "field_mapping" all count, and a durable marker is a plain substring so
// "warnings" and "credentials" count as well.
func usageOnly(text string) bool {
	words := markerWords(text)
	usage := false
	for _, m := range usageMarkers {
		if strings.Contains(words, m) {
			usage = true
			break
		}
	}
	if !usage {
		return false
	}
	for _, m := range durableMarkers {
		if strings.Contains(words, m) {
			return false
		}
	}
	return true
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
