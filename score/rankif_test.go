package score

import (
	"testing"

	"github.com/memrecall/memrecall/memory"
)

// RankIf asks still with the index locked, so nothing ranks or indexes
// between its answer and the ranking, and ranks (indexing as Rank does)
// only when still says so.
func TestRankIf(t *testing.T) {
	a := doc("a", memory.TypeProject, "Deploy", "", "", 0)
	b := doc("b", memory.TypeProject, "Deploy notes", "", "", 1)
	q := NewQuery("deploy", nil)
	for _, still := range []bool{false, true} {
		ix := NewIndex()
		ix.coldAfter = 8
		asked, locked := false, false
		ran := ix.RankIf(q, []*memory.Document{a, b}, func() bool {
			asked = true
			if ix.mu.TryLock() {
				ix.mu.Unlock()
			} else {
				locked = true
			}
			return still
		})
		if !asked || !locked {
			t.Errorf("still=%v: still asked %v, with the index locked %v; want both", still, asked, locked)
		}
		if ran != still {
			t.Errorf("still=%v: RankIf reported %v", still, ran)
		}
		want := 0
		if still {
			want = 2
		}
		if got := ix.Len(); got != want {
			t.Errorf("still=%v: the index holds %d documents, want %d", still, got, want)
		}
	}
}
