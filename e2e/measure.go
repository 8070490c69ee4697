package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memrecall/memrecall/e2e/fakemodel"
)

// Doc is one topic file of a memory tree, recognised in a request by a
// line of its body.
type Doc struct {
	// Name is the file's path relative to its tree, with '/' separators.
	Name string
	// Mark is the first non-empty line of the body (frontmatter excluded),
	// trimmed, at most markRunes runes: text that only this file's body
	// holds and that every renderer keeps whole.
	Mark string
}

const markRunes = 48

// LoadDocs lists the topic files under dir (MEMORY.md excluded) with their
// marks, sorted by name.
func LoadDocs(dir string) ([]Doc, error) {
	var docs []Doc
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") || d.Name() == "MEMORY.md" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if m := bodyMark(data); m != "" {
			docs = append(docs, Doc{Name: filepath.ToSlash(rel), Mark: m})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("e2e: loading %s: %w", dir, err)
	}
	slices.SortFunc(docs, func(a, b Doc) int { return strings.Compare(a.Name, b.Name) })
	return docs, nil
}

// bodyMark returns the mark of a topic file: its first non-empty body line.
func bodyMark(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	inFront, first := false, true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if first {
			first = false
			if line == "---" {
				inFront = true
				continue
			}
		}
		if inFront {
			if line == "---" {
				inFront = false
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		r := []rune(line)
		if len(r) > markRunes {
			r = r[:markRunes]
		}
		return string(r)
	}
	return ""
}

// IndexMark returns a line of a MEMORY.md index that only the index holds
// (its first link line), or "" when dir has none.
func IndexMark(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "- [") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// Text returns every string of a JSON request body joined by newlines,
// with the HTML escapes some agents apply to injected context (&lt; &gt;
// &amp;) undone, so a mark is found wherever the agent put it.
func Text(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return string(body)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(b.String())
}

// Found returns the names of the docs whose mark text holds, in the order
// of docs.
func Found(docs []Doc, text string) []string {
	var out []string
	for _, d := range docs {
		if strings.Contains(text, d.Mark) {
			out = append(out, d.Name)
		}
	}
	return out
}

// Count returns how many times mark occurs in text.
func Count(text, mark string) int { return strings.Count(text, mark) }

// Delivery is what one turn put in front of the agent's model, read from
// the fake server's log.
type Delivery struct {
	// Main is the number of main-loop requests (those that offered tools,
	// selector requests excluded).
	Main int
	// First lists the documents in the first main request.
	First []string
	// Index reports whether the first main request held the MEMORY.md
	// index.
	Index bool
	// AfterTool lists the documents that first appeared in the first main
	// request carrying a tool result (nil when there was none).
	AfterTool []string
	// ToolTurn reports whether a main request carried a tool result.
	ToolTurn bool
}

// MainRequests returns the requests of the agent's main loop: those that
// offered the model tools and were not a recall selector's. (Side
// requests — Gemini CLI's router, titles — offer none. A non-interactive
// run without tool approval may not offer the shell tool, so any tool
// counts.)
func MainRequests(reqs []fakemodel.Request) []fakemodel.Request {
	var out []fakemodel.Request
	for _, r := range reqs {
		if r.Kind != fakemodel.KindSelector && len(r.Tools) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// Measure reads a run's delivery from its requests. docs are the topic
// files to look for; indexMark the index line ("" to ignore the index).
func Measure(reqs []fakemodel.Request, docs []Doc, indexMark string) Delivery {
	main := MainRequests(reqs)
	d := Delivery{Main: len(main)}
	if len(main) == 0 {
		return d
	}
	first := Text(main[0].Body)
	d.First = Found(docs, first)
	d.Index = indexMark != "" && strings.Contains(first, indexMark)
	for _, r := range main {
		if !r.ToolResult {
			continue
		}
		d.ToolTurn = true
		d.AfterTool = []string{}
		for _, n := range Found(docs, Text(r.Body)) {
			if !slices.Contains(d.First, n) {
				d.AfterTool = append(d.AfterTool, n)
			}
		}
		break
	}
	return d
}
