package score

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memrecall/memrecall/memory"
)

// TestTypeWordEvidence: a type word ("release", "freeze" name project
// notes) that a note holds is evidence like any word, so a question
// around it is answered although another of its words is unknown; a type
// word no note holds counts neither way, so a question of such words is
// still answered by what matches (docs/decisions/0212-type-words-evidence.md).
func TestTypeWordEvidence(t *testing.T) {
	docs := []*memory.Document{
		doc("freeze", memory.TypeProject, "release-freeze", "Merge freeze for the mobile release cut", "No merges to main until the build is approved.", 0),
		doc("push", memory.TypeFeedback, "no-force-push", "", "Never force-push during a review.", 1),
		doc("api", memory.TypeProject, "api-versioning", "", "Pin the API during the cut.", 2),
		doc("role", memory.TypeUser, "user-role", "", "Mobile lead.", 3),
	}
	tests := []struct {
		query string
		want  []string
	}{
		{"how do we deploy during the release freeze?", []string{"freeze.md"}},
		// "preferences" is a type word no note holds: counted against the
		// answer, it would silence no-force-push, whose one match is
		// "review" in its body (and no name token answers on its own).
		{"my preferences for reviews", []string{"push.md"}},
		{"the weather in Lisbon during the holidays", nil},
	}
	for _, tt := range tests {
		for name, rank := range map[string]func(Query, []*memory.Document) ([]*memory.Document, []Match){
			"naive": RankNaive, "index": NewIndex().Rank,
		} {
			_, ranked := rank(NewQuery(tt.query, nil), docs)
			got := ids(ranked)
			if len(got) > 1 {
				got = got[:1]
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: %q (-want +got):\n%s", name, tt.query, diff)
			}
		}
	}
}
