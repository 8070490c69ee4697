package model

import (
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/memrecall/memrecall/memory"
)

// Manifest is the bounded list of candidate documents shown to the selector,
// one line per document, "- [type] <key> (<RFC 3339 mtime, UTC>):
// <description>". The key is "<scope>/<relpath>" rather than the absolute ID: the absolute
// path would send the user's home directory to a third party and cost bytes
// on every line (docs/decisions/0400-model-manifest.md). A Manifest is
// immutable once built and safe for concurrent use; the zero value and a nil
// *Manifest are empty.
type Manifest struct {
	text string
	// Invariant: len(keys) == len(docs), keys[i] is docs[i]'s key, every key
	// is unique, and index[keys[i]] == docs[i].ID.
	keys  []string
	docs  []*memory.Document
	index map[string]memory.ID
	// skipped counts candidates left out: nil, duplicate ID, duplicate key,
	// or a line that did not fit.
	skipped int
}

// BuildManifest packs docs, in the order given, into a Manifest of at most
// MaxManifestBytes. Packing is greedy in order and not a prefix: a line that
// does not fit in the bytes left is skipped and later, shorter lines are
// still considered. A nil document, a repeated ID or a key already taken by
// an earlier document is skipped too, so every key names exactly one ID.
func BuildManifest(docs []*memory.Document) *Manifest {
	m := &Manifest{index: make(map[string]memory.ID, len(docs)),
		keys: make([]string, 0, len(docs)), docs: make([]*memory.Document, 0, len(docs))}
	// Room for a typical line per document up front, up to the bound: a
	// builder grown by appending clears and copies every smaller array on
	// the way, about twice the text's pages, and in a fresh process each
	// page is a first touch (decision 0838). Grow leaves the memory
	// uncleared; only what the lines write is touched.
	var b strings.Builder
	b.Grow(min(MaxManifestBytes, manifestLineGuess*len(docs)))
	m.skipped = packManifest(docs, m.index, func(d *memory.Document, key string, line []byte) {
		b.Write(line)
		m.keys = append(m.keys, key)
		m.docs = append(m.docs, d)
	})
	m.text = b.String()
	return m
}

// manifestLineGuess is the bytes BuildManifest reserves per document: a
// typical line, a short path and a description of a sentence or two
// (MaxDescriptionRunes allows far more). Longer lines only make the
// builder grow, as it did before it reserved anything.
const manifestLineGuess = 256

// ManifestSize is BuildManifest(docs).Len() and len(BuildManifest(docs).Text())
// without building the manifest's text or lists: for a caller that
// only reports how large the manifest would be (`memrecall query` without
// a selector, decision 0821).
func ManifestSize(docs []*memory.Document) (n, bytes int) {
	packManifest(docs, make(map[string]memory.ID, len(docs)), func(_ *memory.Document, _ string, line []byte) {
		n++
		bytes += len(line)
	})
	return n, bytes
}

// packManifest is BuildManifest's packing: it calls add, in order, for each
// document that goes into the manifest, with its key and its line (valid
// only during the call), and returns how many it skipped. index, empty on
// entry, maps the keys taken to their documents' IDs: the manifest's own
// index for BuildManifest, so a key is not kept in a second map.
func packManifest(docs []*memory.Document, index map[string]memory.ID, add func(d *memory.Document, key string, line []byte)) (skipped int) {
	seen := make(map[memory.ID]bool, len(docs))
	size := 0
	var line []byte
	for _, d := range docs {
		if d == nil || seen[d.ID] {
			skipped++
			continue
		}
		key := ManifestKey(d)
		if _, taken := index[key]; taken {
			skipped++
			continue
		}
		line = appendLine(line[:0], d, key)
		if size+len(line) > MaxManifestBytes {
			skipped++
			continue
		}
		size += len(line)
		seen[d.ID] = true
		index[key] = d.ID
		add(d, key, line)
	}
	return skipped
}

// ManifestKey is the name a manifest gives d: "<scope>/<relpath>", made safe
// for a single line (control characters and line breaks become "_", invalid
// UTF-8 becomes U+FFFD). A document without RelPath falls back to the base
// name of its ID so no absolute path is ever shown.
func ManifestKey(d *memory.Document) string {
	rel := d.RelPath
	if rel == "" {
		rel = path.Base(strings.ReplaceAll(string(d.ID), "\\", "/"))
	}
	var b strings.Builder
	b.Grow(len(rel) + 8)
	b.WriteString(d.Scope.String())
	b.WriteByte('/')
	for _, r := range strings.ToValidUTF8(rel, "\uFFFD") {
		if memory.BreaksLine(r) || (r != ' ' && unicode.IsSpace(r)) {
			r = '_'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// appendLine appends d's manifest line, newline included, to dst.
func appendLine(dst []byte, d *memory.Document, key string) []byte {
	dst = append(dst, "- ["...)
	dst = append(dst, d.Type.String()...)
	dst = append(dst, "] "...)
	dst = append(dst, key...)
	dst = append(dst, " ("...)
	dst = d.Modified.UTC().AppendFormat(dst, time.RFC3339)
	dst = append(dst, ')')
	if desc := lineDescription(d); desc != "" {
		dst = append(dst, ": "...)
		dst = append(dst, desc...)
	}
	return append(dst, '\n')
}

// lineDescription is the text after the colon: the description, else a
// title the author actually wrote (a title equal to the type name is the
// parser's default and says nothing), flattened to one line and cut at
// MaxDescriptionRunes runes.
func lineDescription(d *memory.Document) string {
	s := flatten(d.Description, MaxDescriptionRunes)
	if s == "" && d.Title != d.Type.String() {
		s = flatten(d.Title, MaxDescriptionRunes)
	}
	return s
}

// oneLine and flatten are memory.OneLine, the one flattener of the
// project: the manifest and the injected text cut frontmatter values the
// same way.
func oneLine(s string) string { l, _ := memory.OneLine(s, -1); return l }

func flatten(s string, maxRunes int) string { l, _ := memory.OneLine(s, maxRunes); return l }

// Text is the manifest as sent to the selector: complete lines, each ending
// in a newline, at most MaxManifestBytes in all.
func (m *Manifest) Text() string {
	if m == nil {
		return ""
	}
	return m.text
}

// Len is the number of documents in the manifest.
func (m *Manifest) Len() int {
	if m == nil {
		return 0
	}
	return len(m.docs)
}

// Skipped is the number of candidates left out of the manifest (did not
// fit, nil, repeated ID or repeated key).
func (m *Manifest) Skipped() int {
	if m == nil {
		return 0
	}
	return m.skipped
}

// Lookup maps a manifest key back to its document's ID. Matching is exact.
func (m *Manifest) Lookup(key string) (memory.ID, bool) {
	if m == nil {
		return "", false
	}
	id, ok := m.index[key]
	return id, ok
}

// Keys returns the manifest keys in manifest order (a fresh slice).
func (m *Manifest) Keys() []string {
	if m == nil {
		return nil
	}
	return append([]string(nil), m.keys...)
}

// Docs returns the documents in manifest order (a fresh slice; the
// documents themselves are shared and immutable).
func (m *Manifest) Docs() []*memory.Document {
	if m == nil {
		return nil
	}
	return append([]*memory.Document(nil), m.docs...)
}
