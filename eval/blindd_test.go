package eval

import "testing"

// blindDPath is the second corpus written for issue 14 by a session that
// never read the scorer (docs/evaluation.md, decision 0504). Like
// blindc_test.go, this file checks only the corpus's own promises, never
// how well a scorer does on it.
const blindDPath = "testdata/blind-d.json"

// TestBlindDCategories checks that every case names its category in its id
// prefix and that each category keeps the shape decision 0504 gives it.
func TestBlindDCategories(t *testing.T) {
	answer := caseRule{expect: answerable}
	want := blindShape{
		counts: map[string]int{
			"plain": 62, "common": 48, "gap": 18, "xlang": 19, "accent": 26,
			"brit": 10, "longbody": 14, "tool": 16,
		},
		rules: map[string]caseRule{
			"common":   {slice: SliceNoResult, expect: silent},
			"gap":      {slice: SliceNoResult, expect: silent},
			"longbody": {slice: SliceBodyOnly, expect: answerable},
			"tool":     {slice: SliceNoiseFilter},
			"xlang":    {slice: SliceMixed, expect: answerable},
			"accent":   answer, "brit": answer, "plain": answer,
		},
		longBody: 3001, // over 3,000
		minDocs:  120,
	}
	_, count := checkBlindShape(t, blindDPath, want)
	if n := count["common"] + count["gap"]; n < 60 {
		t.Errorf("%d no-result cases, want at least 60", n)
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
	withTools, silent := toolCases(t, c)
	otherTool := usageOfInactiveTool(t, c)
	if withTools < 12 || silent < 6 || otherTool < 1 {
		t.Errorf("tool cases: %d with recent tools, %d silent, %d answered by a usage note of an inactive tool; want at least 12, 6 and 1",
			withTools, silent, otherTool)
	}
}
