package eval

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/memrecall/memrecall/memory"
)

// Tree is a corpus written as a memory tree on disk.
type Tree struct {
	// Roots are the project and user scope directories.
	Roots memory.Roots
	// byFile maps a scope and file name to the corpus document id.
	byFile map[string]string
}

// WriteTree writes every document of c as "<id>.md" under dir/project or
// dir/user, with spec §2.3 frontmatter and the document's modified time as the
// file's mtime. dir must exist and should be empty.
func (c *Corpus) WriteTree(dir string) (*Tree, error) {
	t := &Tree{
		Roots: memory.Roots{
			Project: filepath.Join(dir, "project"),
			User:    filepath.Join(dir, "user"),
		},
		byFile: make(map[string]string, len(c.Documents)),
	}
	for _, root := range []string{t.Roots.Project, t.Roots.User} {
		if err := os.MkdirAll(root, 0o755); err != nil {
			return nil, fmt.Errorf("eval: writing the memory tree: %w", err)
		}
	}
	for i := range c.Documents {
		d := &c.Documents[i]
		root := t.Roots.Project
		if d.Scope == memory.ScopeUser.String() {
			root = t.Roots.User
		}
		name := d.ID + ".md"
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, TopicFile(d), 0o644); err != nil {
			return nil, fmt.Errorf("eval: writing document %q: %w", d.ID, err)
		}
		mt := d.ModTime()
		if err := os.Chtimes(p, mt, mt); err != nil {
			return nil, fmt.Errorf("eval: setting the mtime of document %q: %w", d.ID, err)
		}
		t.byFile[d.Scope+"/"+name] = d.ID
	}
	return t, nil
}

// TopicFile renders a document as the bytes of a topic file: frontmatter
// with double-quoted values (escaping \ " and newlines, spec §2.3), a blank
// line, then the body.
func TopicFile(d *Document) []byte {
	var b strings.Builder
	b.WriteString("---\ntype: ")
	b.WriteString(d.Type)
	b.WriteByte('\n')
	if d.Name != "" {
		b.WriteString("name: ")
		b.WriteString(quote(d.Name))
		b.WriteByte('\n')
	}
	if d.Description != "" {
		b.WriteString("description: ")
		b.WriteString(quote(d.Description))
		b.WriteByte('\n')
	}
	b.WriteString("---\n\n")
	b.WriteString(d.Body)
	b.WriteByte('\n')
	return []byte(b.String())
}

// quote writes s as a double-quoted frontmatter value.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Scan runs the real memory scan over the tree and maps every scanned
// document back to its corpus id. A document the scanner skipped is an
// ErrNotScanned error naming it: measuring a corpus with silently missing
// documents would report numbers for a different corpus.
func (t *Tree) Scan(ctx context.Context, c *Corpus) ([]*memory.Document, map[memory.ID]string, error) {
	res, err := memory.Scan(ctx, t.Roots)
	if err != nil {
		return nil, nil, fmt.Errorf("eval: scanning the memory tree: %w", err)
	}
	ids := make(map[memory.ID]string, len(res.Docs))
	for _, d := range res.Docs {
		id, ok := t.byFile[d.Scope.String()+"/"+path.Clean(d.RelPath)]
		if !ok {
			return nil, nil, fmt.Errorf("eval: the scan returned a file the harness did not write")
		}
		ids[d.ID] = id
	}
	if len(ids) != len(c.Documents) {
		found := make(map[string]bool, len(ids))
		for _, id := range ids {
			found[id] = true
		}
		for i := range c.Documents {
			if id := c.Documents[i].ID; !found[id] {
				return nil, nil, fmt.Errorf("%w: document %q: %w (skips: %v)", ErrCorpus, id, ErrNotScanned, skipSummary(res.Skipped))
			}
		}
	}
	return res.Docs, ids, nil
}

// skipSummary lists the non-zero skip counts by reason.
func skipSummary(s memory.SkipCounts) string {
	var parts []string
	for _, r := range memory.SkipReasons() {
		if n := s[r]; n > 0 {
			parts = append(parts, fmt.Sprintf("%v=%d", r, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// scanned is a corpus written as a real memory tree under a temporary
// directory and scanned once with the real scanner: what the quality and
// the delivery runs both start from.
type scanned struct {
	tree *Tree
	docs []*memory.Document
	ids  map[memory.ID]string
	dir  string
}

// writeAndScan writes c under a new temporary directory and scans it. The
// caller must call close.
func writeAndScan(ctx context.Context, c *Corpus) (*scanned, error) {
	dir, err := os.MkdirTemp("", "memrecall-eval-")
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	tree, err := c.WriteTree(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	docs, ids, err := tree.Scan(ctx, c)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &scanned{tree: tree, docs: docs, ids: ids, dir: dir}, nil
}

// close removes the temporary tree.
func (s *scanned) close() { os.RemoveAll(s.dir) }
