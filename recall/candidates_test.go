package recall

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
)

func mkDocs(prefix string, n int, base time.Time) []*memory.Document {
	out := make([]*memory.Document, n)
	for i := range out {
		out[i] = &memory.Document{
			ID:       memory.ID(fmt.Sprintf("/%s/%03d.md", prefix, i)),
			Modified: base.Add(time.Duration(i) * time.Minute),
		}
	}
	return out
}

func ids(docs []*memory.Document) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = string(d.ID)
	}
	return out
}

func TestBuildCandidatesInterleaves(t *testing.T) {
	matches := mkDocs("m", 20, testNow)
	others := mkDocs("o", 3, testNow) // o/002 is the newest
	kept := append(slices.Clone(matches), others...)
	got := ids(buildCandidates(matches, kept))
	var want []string
	for i, m := range ids(matches) {
		want = append(want, m)
		if i == 8 {
			want = append(want, "/o/002.md")
		}
		if i == 17 {
			want = append(want, "/o/001.md")
		}
	}
	want = append(want, "/o/000.md")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("buildCandidates (-want +got):\n%s", diff)
	}
}

func TestBuildCandidatesFullSet(t *testing.T) {
	matches := mkDocs("m", 500, testNow)
	others := mkDocs("o", 500, testNow)
	kept := append(slices.Clone(others), matches...)
	got := buildCandidates(matches, kept)
	if len(got) != maxCandidates {
		t.Fatalf("len = %d, want %d", len(got), maxCandidates)
	}
	// The 20 newest others are o/480..o/499, newest first, at every tenth slot.
	for k := range maxReserve {
		slot := (k+1)*(reserveEvery+1) - 1
		if want := fmt.Sprintf("/o/%03d.md", 499-k); string(got[slot].ID) != want {
			t.Errorf("slot %d = %s, want %s", slot, got[slot].ID, want)
		}
	}
}

func TestBuildCandidatesNoMatches(t *testing.T) {
	kept := mkDocs("o", 30, testNow)
	kept[3].Modified = kept[29].Modified // tie with the newest: kept order wins
	got := ids(buildCandidates(nil, kept))
	want := []string{"/o/003.md", "/o/029.md", "/o/028.md"}
	if diff := cmp.Diff(want, got[:3]); diff != "" || len(got) != maxReserve {
		t.Errorf("len %d, head (-want +got):\n%s", len(got), diff)
	}
}

// TestBuildCandidatesProperties: bounded, no repeats, matches form a rank-
// ordered prefix of the input matches, and the reserve holds the newest
// non-matching documents.
func TestBuildCandidatesProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nm := rapid.IntRange(0, 400).Draw(t, "matches")
		no := rapid.IntRange(0, 60).Draw(t, "others")
		all := mkDocs("d", nm+no, testNow)
		for _, d := range all {
			d.Modified = testNow.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "age")) * time.Hour)
		}
		perm := slices.Clone(rapid.Permutation(all).Draw(t, "order"))
		matches, others := perm[:nm], perm[nm:]
		kept := rapid.Permutation(slices.Clone(perm)).Draw(t, "kept")
		got := buildCandidates(matches, kept)
		if len(got) > maxCandidates {
			t.Fatalf("%d candidates", len(got))
		}
		seen := map[memory.ID]bool{}
		var gotMatches, gotReserve []*memory.Document
		isMatch := map[memory.ID]bool{}
		for _, d := range matches {
			isMatch[d.ID] = true
		}
		for _, d := range got {
			if seen[d.ID] {
				t.Fatalf("repeat %s", d.ID)
			}
			seen[d.ID] = true
			if isMatch[d.ID] {
				gotMatches = append(gotMatches, d)
			} else {
				gotReserve = append(gotReserve, d)
			}
		}
		if want := matches[:min(nm, maxMatches)]; !slices.Equal(gotMatches, want) {
			t.Fatalf("matches are not the ranked prefix")
		}
		if len(gotReserve) != min(no, maxReserve) {
			t.Fatalf("reserve %d, want %d", len(gotReserve), min(no, maxReserve))
		}
		for _, o := range others {
			if seen[o.ID] {
				continue
			}
			for _, r := range gotReserve {
				if o.Modified.After(r.Modified) {
					t.Fatalf("left out %s newer than reserve %s", o.ID, r.ID)
				}
			}
		}
	})
}
