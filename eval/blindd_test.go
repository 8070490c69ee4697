package eval

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// blindDPath is the second corpus written for issue 14 by a session that
// never read the scorer (docs/evaluation.md, decision 0504). Like
// blindc_test.go, this file checks only the corpus's own promises, never
// how well a scorer does on it.
const blindDPath = "testdata/blind-d.json"

// TestBlindDCategories checks that every case names its category in its id
// prefix and that each category keeps the shape decision 0504 gives it.
func TestBlindDCategories(t *testing.T) {
	c, err := Load(blindDPath)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	docs := docByID(c)
	count := map[string]int{}
	for _, k := range c.Cases {
		cat, _, _ := strings.Cut(k.ID, "-")
		count[cat]++
		switch cat {
		case "common", "gap":
			if k.Slice != SliceNoResult || !k.NoResult() {
				t.Errorf("%s: a %s case is a no-result case, got slice %q with %d relevant", k.ID, cat, k.Slice, len(k.Relevant))
			}
		case "longbody":
			if k.Slice != SliceBodyOnly || k.NoResult() {
				t.Errorf("%s: a long-body case is an answerable body-only case", k.ID)
			}
			for _, id := range k.Relevant {
				if n := utf8.RuneCountInString(docs[id].Body); n <= 3000 {
					t.Errorf("%s: relevant %s has a %d-rune body; long-body notes are over 3,000", k.ID, id, n)
				}
			}
		case "tool":
			if k.Slice != SliceNoiseFilter {
				t.Errorf("%s: a tool case belongs to the noise-filter slice, got %q", k.ID, k.Slice)
			}
		case "xlang":
			if k.Slice != SliceMixed || k.NoResult() {
				t.Errorf("%s: a cross-language case is an answerable mixed case", k.ID)
			}
		case "accent", "brit", "plain":
			if k.NoResult() {
				t.Errorf("%s: a %s case is answerable", k.ID, cat)
			}
		default:
			t.Errorf("%s: unknown category prefix %q", k.ID, cat)
		}
	}
	want := map[string]int{
		"plain": 62, "common": 48, "gap": 18, "xlang": 19, "accent": 26,
		"brit": 10, "longbody": 14, "tool": 16,
	}
	if diff := cmp.Diff(want, count); diff != "" {
		t.Errorf("cases per category (-want +got):\n%s", diff)
	}
	if n := count["common"] + count["gap"]; n < 60 {
		t.Errorf("%d no-result cases, want at least 60", n)
	}
	if len(c.Documents) < 120 {
		t.Errorf("%d documents, want at least 120", len(c.Documents))
	}
}

// TestBlindDToolCases checks that the silent tool cases are exactly those
// whose agent just used the tool, and that one case has another tool active
// while a usage note is the answer (the filter must not drop every usage
// note, only the active tool's).
func TestBlindDToolCases(t *testing.T) {
	c, err := Load(blindDPath)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	withTools, silent, otherTool := 0, 0, 0
	for _, k := range c.Cases {
		if !strings.HasPrefix(k.ID, "tool-") {
			continue
		}
		if len(k.RecentTools) > 0 {
			withTools++
		}
		if k.NoResult() {
			silent++
			if len(k.RecentTools) == 0 {
				t.Errorf("%s: a silent tool case needs the tool in recent_tools", k.ID)
			}
		}
		for _, id := range k.Relevant {
			if !strings.HasSuffix(id, "-usage") || len(k.RecentTools) == 0 {
				continue
			}
			// The usage note's tool is never the active one: the note's
			// service (tool-<service>-...-usage) is not the server of any
			// recent tool (mcp__<server>__<tool>).
			service, _, _ := strings.Cut(strings.TrimPrefix(id, "tool-"), "-")
			for _, tool := range k.RecentTools {
				if parts := strings.Split(tool, "__"); len(parts) == 3 && parts[1] == service {
					t.Errorf("%s: usage note %s is relevant while its own tool %s is active", k.ID, id, tool)
				}
			}
			otherTool++
		}
	}
	if withTools < 12 || silent < 6 || otherTool < 1 {
		t.Errorf("tool cases: %d with recent tools, %d silent, %d answered by a usage note of an inactive tool; want at least 12, 6 and 1",
			withTools, silent, otherTool)
	}
}
