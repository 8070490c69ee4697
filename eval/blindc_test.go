package eval

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// blindCPath is the corpus written for issue 14 by a session that never
// read the scorer. This file checks only the corpus's own promises (what
// each category holds), never how well any scorer does on it: the scorer's
// gates for it belong with the scorer's tuning (docs/evaluation.md).
const blindCPath = "testdata/blind-c.json"

// TestBlindCCategories checks that every case names its category in its id
// prefix and that each category keeps the shape issue 14 asks of it.
func TestBlindCCategories(t *testing.T) {
	c, err := Load(blindCPath)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	docs := docByID(c)
	count := map[string]int{}
	for _, k := range c.Cases {
		cat, _, _ := strings.Cut(k.ID, "-")
		count[cat]++
		switch cat {
		case "common":
			if k.Slice != SliceNoResult || !k.NoResult() {
				t.Errorf("%s: a common-word case is a no-result case, got slice %q with %d relevant", k.ID, k.Slice, len(k.Relevant))
			}
		case "longbody":
			if k.Slice != SliceBodyOnly || k.NoResult() {
				t.Errorf("%s: a long-body case is an answerable body-only case", k.ID)
			}
			for _, id := range k.Relevant {
				if n := utf8.RuneCountInString(docs[id].Body); n < 1800 {
					t.Errorf("%s: relevant %s has a %d-rune body; long-body notes are longer", k.ID, id, n)
				}
			}
		case "tool":
			if k.Slice != SliceNoiseFilter {
				t.Errorf("%s: a tool case belongs to the noise-filter slice, got %q", k.ID, k.Slice)
			}
		case "xlang", "accent", "brit", "plain":
			if k.NoResult() {
				t.Errorf("%s: a %s case is answerable", k.ID, cat)
			}
		default:
			t.Errorf("%s: unknown category prefix %q", k.ID, cat)
		}
	}
	want := map[string]int{
		"common": 50, "xlang": 16, "accent": 24, "brit": 10,
		"longbody": 10, "tool": 15, "plain": 62,
	}
	if diff := cmp.Diff(want, count); diff != "" {
		t.Errorf("cases per category (-want +got):\n%s", diff)
	}
	if len(c.Documents) < 120 {
		t.Errorf("%d documents, want at least 120", len(c.Documents))
	}
}

// TestBlindCToolCases checks that the tool cases that expect silence are
// exactly the ones whose agent just used the tool a usage note describes,
// and that at least one usage note names a parameter called owner.
func TestBlindCToolCases(t *testing.T) {
	c, err := Load(blindCPath)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	owner := false
	for _, d := range c.Documents {
		if strings.HasPrefix(d.ID, "tool-") && strings.HasSuffix(d.ID, "-usage") && strings.Contains(d.Body, "`owner`") {
			owner = true
		}
	}
	if !owner {
		t.Error("no tool-usage note names an `owner` parameter")
	}
	withTools, silent := 0, 0
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
	}
	if withTools < 12 || silent < 4 {
		t.Errorf("tool cases: %d with recent tools, %d silent; want at least 12 and 4", withTools, silent)
	}
}
