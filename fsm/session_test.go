package fsm

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNewSessionOneAllocation: the surfaced set is one sorted slice, empty
// until the first delivery, so a new session (one per conversation in the
// daemon) is one allocation: the Session. A second copy of the set (a map
// beside the slice) made it five.
func TestNewSessionOneAllocation(t *testing.T) {
	kept := make([]*Session, 0, 200)
	allocs := testing.AllocsPerRun(100, func() { kept = append(kept, NewSession()) })
	if allocs != 1 {
		t.Errorf("NewSession: %v allocations, want 1", allocs)
	}
	if len(kept) == 0 {
		t.Fatal("no session made")
	}
}

// TestAddSurfaced: deliveries merge into the one sorted set; a document
// delivered twice (only a mutant does that) is kept once; a slice
// SurfacedDocs returned earlier keeps its contents; a reset empties the set.
func TestAddSurfaced(t *testing.T) {
	s := NewSession()
	var snaps, copies [][]DocID
	for _, docs := range [][]DocID{
		{"m.md", "c.md"},
		{"a.md", "z.md", "c.md"},
		{"k.md", "k.md"},
		{},
	} {
		s.addSurfaced(docs)
		snaps = append(snaps, s.SurfacedDocs())
		copies = append(copies, slices.Clone(s.SurfacedDocs()))
	}
	want := [][]DocID{
		{"c.md", "m.md"},
		{"a.md", "c.md", "m.md", "z.md"},
		{"a.md", "c.md", "k.md", "m.md", "z.md"},
		{"a.md", "c.md", "k.md", "m.md", "z.md"},
	}
	if d := cmp.Diff(want, copies); d != "" {
		t.Errorf("surfaced after each delivery (-want +got):\n%s", d)
	}
	if d := cmp.Diff(copies, snaps); d != "" {
		t.Errorf("an earlier SurfacedDocs slice changed (-was +now):\n%s", d)
	}
	for _, d := range []DocID{"a.md", "k.md", "z.md"} {
		if !s.Surfaced(d) {
			t.Errorf("Surfaced(%s) = false after its delivery", d)
		}
	}
	if s.Surfaced("b.md") {
		t.Error("Surfaced(b.md) = true, never delivered")
	}
	clearSurfaced(s, Event{})
	if s.Surfaced("a.md") || len(s.SurfacedDocs()) != 0 {
		t.Errorf("after a reset: Surfaced(a.md) = %v, SurfacedDocs = %v; want nothing", s.Surfaced("a.md"), s.SurfacedDocs())
	}
}
