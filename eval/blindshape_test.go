package eval

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// blindShape is what a blind corpus promises about its own cases, never
// about how well a scorer does on them: the category every case names as
// its id prefix ("common-3"), how many cases each category holds, and the
// slice and answerability each category's cases must have. The blind-c,
// blind-d (and later) corpus tests state theirs and share checkBlindShape.
type blindShape struct {
	// counts is the number of cases per category; a case of a category
	// not listed here is an error.
	counts map[string]int
	// rules says, per category, what its cases must be; a category
	// without a rule only counts.
	rules map[string]caseRule
	// longBody, when positive, is the fewest runes the body of every
	// relevant document of a "longbody" case must have.
	longBody int
	// minDocs is the fewest documents the corpus must hold.
	minDocs int
}

// caseRule is what every case of one category must be.
type caseRule struct {
	// slice is the case's slice; "" accepts any.
	slice string
	// expect is whether the case has relevant documents.
	expect expectation
}

// expectation is whether a case expects an answer.
type expectation int

const (
	eitherWay  expectation = iota // no promise
	answerable                    // at least one relevant document
	silent                        // no relevant document: a no-result case
)

// holds reports whether case k meets the expectation.
func (e expectation) holds(k *Case) bool {
	switch e {
	case answerable:
		return !k.NoResult()
	case silent:
		return k.NoResult()
	}
	return true
}

func (e expectation) String() string {
	return [...]string{"either way", "answerable", "no-result"}[e]
}

// checkBlindShape loads the corpus at path, checks it against want and
// returns it, with its count of cases per category, for the corpus's own
// further checks.
func checkBlindShape(t *testing.T, path string, want blindShape) (*Corpus, map[string]int) {
	t.Helper()
	c, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	docs := docByID(c)
	count := map[string]int{}
	for _, k := range c.Cases {
		cat := CaseCategory(k.ID)
		count[cat]++
		if _, known := want.counts[cat]; !known {
			t.Errorf("%s: unknown category prefix %q", k.ID, cat)
			continue
		}
		r, ok := want.rules[cat]
		if !ok {
			continue
		}
		if (r.slice != "" && k.Slice != r.slice) || !r.expect.holds(&k) {
			t.Errorf("%s: a %s case is slice %q with %d relevant; want slice %q (\"\" any), %v",
				k.ID, cat, k.Slice, len(k.Relevant), r.slice, r.expect)
		}
		if cat != "longbody" || want.longBody <= 0 {
			continue
		}
		for _, id := range k.Relevant {
			d := docs[id]
			if d == nil {
				t.Errorf("%s: relevant %s is not a document", k.ID, id)
			} else if n := utf8.RuneCountInString(d.Body); n < want.longBody {
				t.Errorf("%s: relevant %s has a %d-rune body; long-body notes have at least %d", k.ID, id, n, want.longBody)
			}
		}
	}
	if diff := cmp.Diff(want.counts, count); diff != "" {
		t.Errorf("cases per category (-want +got):\n%s", diff)
	}
	if len(c.Documents) < want.minDocs {
		t.Errorf("%d documents, want at least %d", len(c.Documents), want.minDocs)
	}
	return c, count
}

// toolCases counts a corpus's "tool-" cases that name recent tools and
// those that expect silence, and reports every silent one without a recent
// tool: silence is owed only to a note on a tool the agent just used.
func toolCases(t *testing.T, c *Corpus) (withTools, silent int) {
	t.Helper()
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
	return withTools, silent
}

// usageOfInactiveTool counts the relevant usage notes of a corpus's
// "tool-" cases that name recent tools, and reports every one whose own
// tool is among them: a usage note may answer while another tool is
// active, never while its own is. A usage note is named
// tool-<server>-...-usage after the server of its tool, which a recent
// tool names as mcp__<server>__<tool> or <server>::<tool>.
func usageOfInactiveTool(t *testing.T, c *Corpus) int {
	t.Helper()
	n := 0
	for _, k := range c.Cases {
		if !strings.HasPrefix(k.ID, "tool-") || len(k.RecentTools) == 0 {
			continue
		}
		for _, id := range k.Relevant {
			if !strings.HasSuffix(id, "-usage") {
				continue
			}
			server, _, _ := strings.Cut(strings.TrimPrefix(id, "tool-"), "-")
			for _, tool := range k.RecentTools {
				if toolServer(tool) == server {
					t.Errorf("%s: usage note %s is relevant while its own tool %s is active", k.ID, id, tool)
				}
			}
			n++
		}
	}
	return n
}

// toolServer returns the server part of a tool name in either alias form
// (mcp__<server>__<tool>, <server>::<tool>), or "" for another form.
func toolServer(tool string) string {
	if parts := strings.Split(tool, "__"); len(parts) == 3 && parts[0] == "mcp" {
		return parts[1]
	}
	if server, _, ok := strings.Cut(tool, "::"); ok {
		return server
	}
	return ""
}

// issue14Rules is the category shape blind-d and blind-e share (decisions
// 0504, 0505): which slice each id prefix sits in and whether it expects
// an answer.
func issue14Rules() map[string]caseRule {
	answer := caseRule{expect: answerable}
	return map[string]caseRule{
		"common":   {slice: SliceNoResult, expect: silent},
		"gap":      {slice: SliceNoResult, expect: silent},
		"longbody": {slice: SliceBodyOnly, expect: answerable},
		"tool":     {slice: SliceNoiseFilter},
		"xlang":    {slice: SliceMixed, expect: answerable},
		"accent":   answer, "brit": answer, "plain": answer,
	}
}

// checkIssue14ToolCases loads the corpus at path and checks its tool
// cases (toolCases): at least minTools cases with recent tools, at least
// minSilent of them silent, and at least one answered by a usage note of
// a tool that is not the active one (usageOfInactiveTool).
func checkIssue14ToolCases(t *testing.T, path string, minTools, minSilent int) {
	t.Helper()
	c, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	withTools, silent := toolCases(t, c)
	otherTool := usageOfInactiveTool(t, c)
	if withTools < minTools || silent < minSilent || otherTool < 1 {
		t.Errorf("tool cases: %d with recent tools, %d silent, %d answered by a usage note of an inactive tool; want at least %d, %d and 1",
			withTools, silent, otherTool, minTools, minSilent)
	}
}
