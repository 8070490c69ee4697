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
	want := blindShape{
		counts: map[string]int{
			"plain": 62, "common": 48, "gap": 18, "xlang": 19, "accent": 26,
			"brit": 10, "longbody": 14, "tool": 16,
		},
		rules:    issue14Rules(),
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
	checkIssue14ToolCases(t, blindDPath, 12, 6)
}
