package recall

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
)

// TestWorstCaseFitsMinBudget pins the arithmetic behind MinPromptBytes:
// five largest-possible blocks in their smallest form and the heading fit
// in it, so a host's small budget never drops a counted document. Every
// budget is at least MinPromptBytes, so this also covers MaxPromptBytes.
func TestWorstCaseFitsMinBudget(t *testing.T) {
	d := &memory.Document{
		Title: strings.Repeat("\U0001F600", 10*maxTitleRunes), RelPath: strings.Repeat("\U0001F600", 10*maxPathBytes),
		Description: strings.Repeat("\U0001F600", 10*maxDescRunes), Body: strings.Repeat("\U0001F600", 10*memory.BodyWindow),
		Modified: testNow.AddDate(-100, 0, 0),
	}
	head := len(injectHeading + "\n" + injectInstruction)
	share := (MinPromptBytes - head) / MaxPromptDocs
	if n := len(renderBlock(MaxPromptDocs, d, testNow, 0, 0, true)); n > share {
		t.Fatalf("smallest worst-case block is %d bytes, share at MinPromptBytes is %d", n, share)
	}
	docs := []*memory.Document{d, d, d, d, d}
	out := renderWithin(docs, testNow, MinPromptBytes)
	if len(out) > MinPromptBytes {
		t.Fatalf("text is %d bytes, budget %d", len(out), MinPromptBytes)
	}
	if got := strings.Count(out, "\n## "); got != MaxPromptDocs {
		t.Fatalf("%d headings, want %d", got, MaxPromptDocs)
	}
}

func TestPromptBudgetClamps(t *testing.T) {
	got := []int{promptBudget(0), promptBudget(-1), promptBudget(1), promptBudget(8000), promptBudget(1 << 20)}
	want := []int{MaxPromptBytes, MaxPromptBytes, MinPromptBytes, 8000, MaxPromptBytes}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("promptBudget (-want +got):\n%s", diff)
	}
}

// TestRenderWithinHostBudget: for any budget a host may set and any
// documents, the text fits the budget and shows every document once.
func TestRenderWithinHostBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		budget := promptBudget(rapid.IntRange(MinPromptBytes, MaxPromptBytes).Draw(t, "budget"))
		n := rapid.IntRange(1, MaxPromptDocs).Draw(t, "docs")
		docs := make([]*memory.Document, n)
		for i := range docs {
			docs[i] = genDoc(t, i)
		}
		out := renderWithin(docs, testNow, budget)
		if len(out) > budget {
			t.Fatalf("text is %d bytes, budget %d", len(out), budget)
		}
		_, outside := parseFences(t, out)
		headings := 0
		for _, line := range outside {
			if strings.HasPrefix(line, "## ") {
				headings++
			}
		}
		if headings != n {
			t.Fatalf("%d headings, want %d", headings, n)
		}
	})
}

// TestRenderFrameHasNoAngleBrackets: Gemini CLI and Qwen Code escape '<'
// and '>' in hook context, so the frame the renderer adds around memory
// text must not use them (memory text itself passes through as written).
func TestRenderFrameHasNoAngleBrackets(t *testing.T) {
	d := &memory.Document{Title: "t", RelPath: "a.md", Description: "d", Body: "b", Modified: testNow}
	out := renderWithin([]*memory.Document{d}, testNow.AddDate(0, 0, 3), MaxPromptBytes)
	if strings.ContainsAny(out, "<>") {
		t.Fatalf("frame uses angle brackets:\n%s", out)
	}
	if !strings.Contains(out, "saved 3 days ago") || !strings.Contains(out, "memory: a.md") {
		t.Fatalf("block does not say which memory and how old:\n%s", out)
	}
}
