package model

import (
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
)

// textGen draws text that stresses sanitising and cutting: multi-byte
// runes, line breaks, controls, separators and, sometimes, invalid UTF-8.
func textGen(maxRunes int) *rapid.Generator[string] {
	special := []rune{'\n', '\r', '\t', ' ', '\u0085', '\u2028', '\u2029', '\x00', 'é', '漢', '🙂', 'a', 'z', '-', '/'}
	valid := rapid.StringOfN(rapid.OneOf(
		rapid.RuneFrom(special),
		rapid.RuneFrom(nil, unicode.Latin, unicode.Han, unicode.Cyrillic),
		rapid.Rune(),
	), 0, maxRunes, -1)
	invalid := rapid.Custom(func(t *rapid.T) string {
		return string(rapid.SliceOfN(rapid.Byte(), 0, 64).Draw(t, "bytes"))
	})
	return rapid.OneOf(valid, valid, valid, invalid)
}

func docGen() *rapid.Generator[*memory.Document] {
	return rapid.Custom(func(t *rapid.T) *memory.Document {
		if rapid.IntRange(0, 50).Draw(t, "nil") == 0 {
			return nil
		}
		scope := rapid.SampledFrom([]memory.Scope{memory.ScopeProject, memory.ScopeUser}).Draw(t, "scope")
		rel := rapid.OneOf(
			rapid.SampledFrom([]string{"a.md", "b.md", "dir/c.md", "a\n.md", "a\r.md"}),
			textGen(40),
			rapid.Custom(func(t *rapid.T) string {
				return strings.Repeat("p", rapid.IntRange(1000, 9000).Draw(t, "longPath")) + ".md"
			}),
		).Draw(t, "rel")
		typ := rapid.SampledFrom(memory.Types[:]).Draw(t, "type")
		return &memory.Document{
			// IDs may repeat (the same file twice) but mostly differ.
			ID:          memory.ID("/root/" + scope.String() + "/" + rel),
			Scope:       scope,
			RelPath:     rel,
			Type:        typ,
			Title:       rapid.OneOf(rapid.Just(typ.String()), textGen(80)).Draw(t, "title"),
			Description: textGen(1500).Draw(t, "description"),
			Modified:    time.Unix(rapid.Int64Range(0, 4e9).Draw(t, "mtime"), 0),
		}
	})
}

// TestManifestPackingProperties checks the packing contract on random
// candidate lists against a plain model of greedy in-order packing.
func TestManifestPackingProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		docs := rapid.SliceOfN(docGen(), 0, 250).Draw(t, "docs")
		m := BuildManifest(docs)
		text := m.Text()

		if len(text) > MaxManifestBytes {
			t.Fatalf("manifest is %d bytes, limit %d", len(text), MaxManifestBytes)
		}
		if !utf8.ValidString(text) {
			t.Fatalf("manifest is not valid UTF-8")
		}

		// Model: walk the candidates in order; a candidate is included iff
		// it is non-nil, new by ID, new by key and its line fits in the
		// bytes left at that point.
		var wantKeys []string
		var want strings.Builder
		seenID := map[memory.ID]bool{}
		seenKey := map[string]bool{}
		for _, d := range docs {
			if d == nil || seenID[d.ID] {
				continue
			}
			key := ManifestKey(d)
			if seenKey[key] {
				continue
			}
			line := string(appendLine(nil, d, key))
			if want.Len()+len(line) > MaxManifestBytes {
				continue // did not fit at this point; later lines still count
			}
			want.WriteString(line)
			seenID[d.ID], seenKey[key] = true, true
			wantKeys = append(wantKeys, key)
		}
		if text != want.String() {
			t.Fatalf("packing differs from greedy in-order model")
		}
		if m.Len() != len(wantKeys) || m.Skipped() != len(docs)-len(wantKeys) {
			t.Fatalf("Len %d Skipped %d for %d candidates, model includes %d", m.Len(), m.Skipped(), len(docs), len(wantKeys))
		}
		if n, size := ManifestSize(docs); n != m.Len() || size != len(text) {
			t.Fatalf("ManifestSize = %d documents, %d bytes; BuildManifest has %d, %d", n, size, m.Len(), len(text))
		}

		lines := strings.SplitAfter(text, "\n")
		if lines[len(lines)-1] != "" {
			t.Fatalf("manifest does not end with a complete line")
		}
		lines = lines[:len(lines)-1]
		keys, mdocs := m.Keys(), m.Docs()
		if len(lines) != len(keys) {
			t.Fatalf("%d lines for %d keys", len(lines), len(keys))
		}
		for i, line := range lines {
			d, key := mdocs[i], keys[i]
			if key != wantKeys[i] {
				t.Fatalf("key %d = %q, want %q", i, key, wantKeys[i])
			}
			if id, ok := m.Lookup(key); !ok || id != d.ID {
				t.Fatalf("Lookup(%q) = %q, %v; want %q", key, id, ok, d.ID)
			}
			if strings.ContainsFunc(key, memory.BreaksLine) {
				t.Fatalf("key %q can break a line", key)
			}
			// A complete line: prefix, key, time, optional description,
			// exactly one newline at the end.
			head := "- [" + d.Type.String() + "] " + key + " (" + d.Modified.UTC().Format(time.RFC3339) + ")"
			if !strings.HasPrefix(line, head) || strings.Count(line, "\n") != 1 {
				t.Fatalf("line %d is not complete: %q", i, line)
			}
			rest := strings.TrimSuffix(strings.TrimPrefix(line, head), "\n")
			if rest == "" {
				continue
			}
			desc, ok := strings.CutPrefix(rest, ": ")
			if !ok {
				t.Fatalf("line %d: %q after the time", i, rest)
			}
			full := oneLine(d.Description)
			if full == "" {
				full = oneLine(d.Title)
			}
			if !strings.HasPrefix(full, desc) {
				t.Fatalf("line %d: description %q is not a prefix of %q", i, desc, full)
			}
			n := utf8.RuneCountInString(desc)
			if n > MaxDescriptionRunes {
				t.Fatalf("line %d: description has %d runes", i, n)
			}
			// A cut happens only at MaxDescriptionRunes runes (with the
			// space it exposed trimmed), so never inside a rune.
			if desc != full {
				first := strings.TrimRight(string([]rune(full)[:MaxDescriptionRunes]), " ")
				if desc != first {
					t.Fatalf("line %d: description cut at %d runes, not at %d", i, n, MaxDescriptionRunes)
				}
			}
		}
	})
}
