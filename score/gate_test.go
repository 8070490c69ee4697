package score

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memrecall/memrecall/memory"
)

// TestKnownShareGate: a query is answered only when more than a third of
// its content tokens are matched by some kept document, whichever document
// that is; type-vocabulary words count on neither side.
func TestKnownShareGate(t *testing.T) {
	docs := []*memory.Document{
		doc("migrations", memory.TypeFeedback, "Migration rules", "rollback plan for every schema change", "", 1),
		doc("redis", memory.TypeProject, "Redis eviction", "postmortem of the cache outage", "", 2),
		doc("cache-zh", memory.TypeProject, "缓存复盘", "redis", "", 3),
		doc("coffee", memory.TypeUser, "Coffee", "oat milk, no sugar", "", 4),
		doc("usage", memory.TypeReference, "Tool usage: deploy_tool", "api docs", "kubernetes helm chart", 5),
	}
	tool := []string{"deploy_tool"}
	tests := []struct {
		name, query string
		tools       []string
		want        []string
	}{
		// The usage note is removed by the noise filter while deploy_tool
		// is in use, so it does not count as knowing its words.
		{"one known word of four", "kubernetes helm chart rollback", tool, nil},
		{"one known word of three", "terraform helm rollback", tool, nil},
		{"one or two tokens: any match", "helm rollback", tool, []string{"migrations.md"}},
		{"known across documents", "redis eviction postmortem", tool, []string{"redis.md", "cache-zh.md"}},
		{"type words left out", "coffee preference profile personal habit", tool, []string{"coffee.md"}},
		{"only type words", "preferences profile", tool, nil},
		{"kept documents count", "kubernetes helm chart rollback", nil, []string{"migrations.md", "usage.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := NewQuery(tt.query, tt.tools)
			_, naive := RankNaive(q, docs)
			ix := NewIndex()
			_, indexed := ix.Rank(q, docs)
			cold := NewIndex()
			cold.coldAfter = 0
			_, direct := cold.Rank(q, docs)
			for name, got := range map[string][]Match{"naive": naive, "index": indexed, "direct": direct} {
				if diff := cmp.Diff(tt.want, ids(got), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s %q (-want +got):\n%s", name, tt.query, diff)
				}
			}
		})
	}
}
