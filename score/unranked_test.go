package score

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/memory"
	"pgregory.net/rapid"
)

// TestUnranked states the rule in one table: a query is unranked when it
// has no token left after normalising and dropping stop words, and no
// recent tool gives it an alias. For each row, Rank over a pool with a nil
// and a usage-only document that names create_issue answers KeepAll exactly
// when the row is unranked: with an alias, that document is filtered out.
func TestUnranked(t *testing.T) {
	noise := doc("noise", memory.TypeReference, "Tool usage reference", "",
		"Call create_issue with a title and a body.", 1)
	plain := doc("plain", memory.TypeProject, "Deploy notes", "steps for the release", "Body.", 2)
	pool := []*memory.Document{plain, nil, noise}
	for _, tc := range []struct {
		name  string
		text  string
		tools []string
		want  bool
	}{
		{"nothing", "", nil, true},
		{"only stop words", "the of what are", nil, true},
		{"single letters", "x y", nil, true},
		{"punctuation", "- . /", nil, true},
		{"a blank tool names nothing", "the", []string{" ", "__"}, true},
		{"a word", "deploy", nil, false},
		{"a word and a tool", "deploy", []string{"create_issue"}, false},
		{"a tool and no word", "the", []string{"mcp__github__create_issue"}, false},
		{"only a tool", "", []string{"create_issue"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := NewQuery(tc.text, tc.tools)
			if got := q.Unranked(); got != tc.want {
				t.Fatalf("Unranked() = %v, want %v (tokens %q, aliases %q)", got, tc.want, q.Tokens(), q.ToolAliases())
			}
			ix := NewIndex()
			kept, ranked := ix.Rank(q, pool)
			same := cmp.Equal(kept, KeepAll(pool)) && ranked == nil
			if same != tc.want {
				t.Errorf("Rank kept %v, ranked %v: equal to KeepAll = %v, want %v", docIDs(kept), ranked, same, tc.want)
			}
			if tc.want && ix.Len() != 2 {
				t.Errorf("an unranked query indexed %d documents, want the 2 non-nil ones", ix.Len())
			}
		})
	}
}

func TestKeepAll(t *testing.T) {
	a, b := doc("a", memory.TypeUser, "A", "", "", 0), doc("b", memory.TypeUser, "B", "", "", 1)
	for _, tc := range []struct {
		name string
		docs []*memory.Document
		want []*memory.Document
	}{
		{"none", nil, nil},
		{"only nils", []*memory.Document{nil, nil}, nil},
		{"order kept, nils skipped, duplicates kept", []*memory.Document{b, nil, a, b}, []*memory.Document{b, a, b}},
	} {
		if diff := cmp.Diff(docIDs(tc.want), docIDs(KeepAll(tc.docs))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
		if got := KeepAll(tc.docs); (got == nil) != (tc.want == nil) {
			t.Errorf("%s: KeepAll = %#v, want nil %v", tc.name, got, tc.want == nil)
		}
	}
}

// TestPropUnrankedRankKeepsAll: whatever an index holds (earlier queries,
// warm-ups, frozen or not), Rank of an unranked query answers KeepAll and
// ranks nothing, so a host that answers KeepAll without calling Rank
// (recall's engine without a warm-up, decision 0812) gives Rank's answer.
func TestPropUnrankedRankKeepsAll(t *testing.T) {
	stop := rapid.SampledFrom([]string{"", "the", "of", "x", "y", "what are", "-", ".", "a b", "deploy", "Müller", "create_issue"})
	rapid.Check(t, func(t *rapid.T) {
		ix := NewIndex()
		ix.coldAfter = rapid.IntRange(0, 8).Draw(t, "coldAfter")
		ix.compactAfter = rapid.IntRange(0, 8).Draw(t, "compactAfter")
		pool := rapid.SliceOfN(rapid.OneOf(docGen(), longDocGen()), 1, 10).Draw(t, "pool")
		for range rapid.IntRange(0, 3).Draw(t, "before") {
			docs := rapid.SliceOfN(rapid.SampledFrom(pool), 0, 10).Draw(t, "earlier")
			switch rapid.IntRange(0, 2).Draw(t, "how") {
			case 0:
				ix.Rank(queryGen().Draw(t, "earlierQuery"), docs)
			case 1:
				ix.Warm(docs)
			default:
				ix.Freeze(docs)
			}
		}
		docs := rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom(pool), rapid.Just[*memory.Document](nil)), 0, 12).Draw(t, "docs")
		var tools []string
		if rapid.IntRange(0, 3).Draw(t, "withTools") == 0 {
			tools = rapid.SliceOfN(rapid.SampledFrom([]string{"create_issue", "Read", " ", "__"}), 1, 2).Draw(t, "tools")
		}
		q := NewQuery(stop.Draw(t, "w1")+" "+stop.Draw(t, "w2"), tools)
		if !q.Unranked() {
			return
		}
		kept, ranked := ix.Rank(q, docs)
		if diff := cmp.Diff(docIDs(KeepAll(docs)), docIDs(kept)); diff != "" || ranked != nil || (kept == nil) != (KeepAll(docs) == nil) {
			t.Fatalf("Rank of an unranked query (-KeepAll +Rank):\n%s\nranked %v", diff, ranked)
		}
	})
}

// docIDs lists the documents' IDs ("<nil>" for a nil one).
func docIDs(docs []*memory.Document) []string {
	var out []string
	for _, d := range docs {
		if d == nil {
			out = append(out, "<nil>")
			continue
		}
		out = append(out, string(d.ID))
	}
	return out
}
