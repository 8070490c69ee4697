package eval

import (
	"strings"
	"testing"
)

// blindCPath is the corpus written for issue 14 by a session that never
// read the scorer. This file checks only the corpus's own promises (what
// each category holds), never how well any scorer does on it: the scorer's
// gates for it belong with the scorer's tuning (docs/evaluation.md).
const blindCPath = "testdata/blind-c.json"

// TestBlindCCategories checks that every case names its category in its id
// prefix and that each category keeps the shape issue 14 asks of it.
func TestBlindCCategories(t *testing.T) {
	answer := caseRule{expect: answerable}
	checkBlindShape(t, blindCPath, blindShape{
		counts: map[string]int{
			"common": 50, "xlang": 16, "accent": 24, "brit": 10,
			"longbody": 10, "tool": 15, "plain": 62,
		},
		rules: map[string]caseRule{
			"common":   {slice: SliceNoResult, expect: silent},
			"longbody": {slice: SliceBodyOnly, expect: answerable},
			"tool":     {slice: SliceNoiseFilter},
			"xlang":    answer, "accent": answer, "brit": answer, "plain": answer,
		},
		longBody: 1800,
		minDocs:  120,
	})
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
	withTools, silent := toolCases(t, c)
	if withTools < 12 || silent < 4 {
		t.Errorf("tool cases: %d with recent tools, %d silent; want at least 12 and 4", withTools, silent)
	}
}
