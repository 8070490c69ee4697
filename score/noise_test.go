package score

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
)

// pad returns n runes of filler cut from repeats of unit, ending in a
// space so that what follows starts a word. The filler holds no marker,
// hint or tool name.
func pad(n int, unit string) string {
	r := []rune(strings.Repeat(unit, n/len([]rune(unit))+1))
	return string(r[:n-1]) + " "
}

// TestNoiseWholeBody: the noise filter reads the whole body the scan
// keeps, as the matcher does, not only the window a prompt shows; its
// rule is unchanged (a recent tool, a usage marker, no durable marker in
// the prose), and words cut by the window's end are read whole. IsNoise,
// the naive ranking and the index (indexed and directly scored) agree.
func TestNoiseWholeBody(t *testing.T) {
	const ascii, other = "lorem ipsum dolor ", "lörem ïpsum 漢字 "
	far := pad(memory.BodyWindow+300, ascii) // ends past the window
	tests := []struct {
		name       string
		desc, body string
		noise      bool
	}{
		{"usage note naming the tool past the window",
			"Tool usage reference", far + " Call create_issue with a title and a body.", true},
		{"usage note naming the tool past a non-ASCII window",
			"Tool usage reference", pad(memory.BodyWindow+300, other) + " Call create_issue with a title.", true},
		{"usage marker past the window",
			"Calling create_issue", far + " Tool usage: title, body, labels.", true},
		{"durable lesson past the window is kept",
			"Tool usage for create_issue", far + " Gotcha: labels must exist before create_issue accepts them.", false},
		{"durable lesson past a non-ASCII window is kept",
			"Tool usage for create_issue", pad(memory.BodyWindow+300, other) + " Workaround: retry after a minute.", false},
		{"owner as a parameter past the window is not durable",
			"Tool usage for create_issue", far + "\n- owner: string\n- repo: string\n", true},
		{"tool name across the window's end",
			"Tool usage reference", pad(memory.BodyWindow-5, ascii) + "create_issue takes a title.", true},
		{"durable marker across the window's end is kept",
			"Tool usage for create_issue", pad(memory.BodyWindow-3, ascii) + "owner asked for labels.", false},
		{"usage marker across the window's end",
			"Calling create_issue", pad(memory.BodyWindow-3, ascii) + "usage reference follows.", true},
		{"usage marker past the window, no tool anywhere",
			"Calling the tracker", far + " Tool usage: title, body, labels.", false},
		{"tool named only beyond what the scan keeps",
			"Tool usage reference", pad(memory.ReadLimit+10, ascii) + " create_issue", false},
	}
	type result struct {
		IsNoise                     bool
		Naive, Indexed, DirectScore []string
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := doc("note", memory.TypeReference, "Issue tracker notes", tt.desc, tt.body, 0)
			keep := doc("other", memory.TypeProject, "Issue triage", "how we label an issue", "", 0)
			docs := []*memory.Document{d, keep}
			q := NewQuery("issue labels", []string{"mcp__github__create_issue"})
			want := result{IsNoise: tt.noise, Naive: []string{"note.md", "other.md"}}
			if tt.noise {
				want.Naive = []string{"other.md"}
			}
			want.Indexed, want.DirectScore = want.Naive, want.Naive

			got := result{IsNoise: IsNoise(d, q)}
			kept, _ := RankNaive(q, docs)
			got.Naive = relPaths(kept)
			indexed := NewIndex()
			indexed.coldAfter = len(docs) // indexes both
			kept, _ = indexed.Rank(q, docs)
			got.Indexed = relPaths(kept)
			direct := NewIndex()
			direct.coldAfter = 0 // scores both directly
			kept, _ = direct.Rank(q, docs)
			got.DirectScore = relPaths(kept)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func relPaths(docs []*memory.Document) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.RelPath
	}
	return out
}

// FuzzDurableMarker: the durable-marker scanner never panics on arbitrary
// text; a marker it finds is made of words of the text; text without
// backquotes holds none once fenced as code, and gains one when a prose
// lesson follows it.
func FuzzDurableMarker(f *testing.F) {
	f.Add("Gotcha: labels must exist.")
	f.Add("Parameters: owner (string), repo (string).")
	f.Add("- owner: string\n- repo: string")
	f.Add("Pass `owner` and `repo`.\n```\nknown issue\n```")
	f.Add("Known issues: repo_owner, obj.owner, owner::x, \"owner\"")
	f.Fuzz(func(t *testing.T, text string) {
		text = Normalize(text)
		found := hasDurableMarker(text)
		if found {
			words := strings.Fields(markerWords(text))
			seen := false
			for i := range words {
				for _, m := range durableMarkers {
					ok := i+len(m) <= len(words)
					for k := 0; ok && k < len(m); k++ {
						ok = words[i+k] == m[k] || words[i+k] == m[k]+"s"
					}
					seen = seen || ok
				}
			}
			if !seen {
				t.Fatalf("hasDurableMarker(%q) found a marker that is not among its words", text)
			}
		}
		if strings.Contains(text, "`") {
			return
		}
		if hasDurableMarker("```\n" + text + "\n```") {
			t.Fatalf("a marker inside a fenced block counts: %q", text)
		}
		if !hasDurableMarker(text + "\n\ngotcha: it needs a retry.") {
			t.Fatalf("a prose lesson after %q is not found", text)
		}
	})
}
