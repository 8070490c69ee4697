package model

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/memory"
)

var testTime = time.Date(2026, 6, 1, 9, 0, 0, 0, time.FixedZone("CEST", 2*3600))

func doc(scope memory.Scope, rel string, typ memory.Type, desc string) *memory.Document {
	root := "/home/alice/.qwen/projects/repo/memory/"
	if scope == memory.ScopeUser {
		root = "/home/alice/.qwen/memories/"
	}
	return &memory.Document{
		ID:          memory.ID(root + rel),
		Scope:       scope,
		RelPath:     rel,
		Type:        typ,
		Title:       typ.String(),
		Description: desc,
		Modified:    testTime,
	}
}

func TestManifestLines(t *testing.T) {
	long := strings.Repeat("é", 600)
	tests := []struct {
		name string
		doc  *memory.Document
		want string
	}{
		{
			name: "plain",
			doc:  doc(memory.ScopeProject, "deploy/checklist.md", memory.TypeReference, "How we deploy"),
			want: "- [reference] project/deploy/checklist.md (2026-06-01T07:00:00Z): How we deploy\n",
		},
		{
			name: "user scope",
			doc:  doc(memory.ScopeUser, "prefs.md", memory.TypeUser, "Prefers tabs"),
			want: "- [user] user/prefs.md (2026-06-01T07:00:00Z): Prefers tabs\n",
		},
		{
			name: "newlines and tabs flattened",
			doc:  doc(memory.ScopeProject, "a.md", memory.TypeFeedback, "  line one\r\nline\ttwo\u2028three\u0085four\x00five  "),
			want: "- [feedback] project/a.md (2026-06-01T07:00:00Z): line one line two three four five\n",
		},
		{
			name: "invalid UTF-8 repaired",
			doc:  doc(memory.ScopeProject, "a.md", memory.TypeProject, "bad \xff byte"),
			want: "- [project] project/a.md (2026-06-01T07:00:00Z): bad \uFFFD byte\n",
		},
		{
			name: "description cut at 512 runes",
			doc:  doc(memory.ScopeProject, "a.md", memory.TypeProject, long),
			want: "- [project] project/a.md (2026-06-01T07:00:00Z): " + strings.Repeat("é", 512) + "\n",
		},
		{
			name: "cut exposes no trailing space",
			doc:  doc(memory.ScopeProject, "a.md", memory.TypeProject, strings.Repeat("x", 511)+" tail"),
			want: "- [project] project/a.md (2026-06-01T07:00:00Z): " + strings.Repeat("x", 511) + "\n",
		},
		{
			name: "no description, default title: no colon",
			doc:  doc(memory.ScopeProject, "a.md", memory.TypeProject, ""),
			want: "- [project] project/a.md (2026-06-01T07:00:00Z)\n",
		},
		{
			name: "no description, authored title used",
			doc: func() *memory.Document {
				d := doc(memory.ScopeProject, "a.md", memory.TypeProject, "")
				d.Title = "Release\nfreeze"
				return d
			}(),
			want: "- [project] project/a.md (2026-06-01T07:00:00Z): Release freeze\n",
		},
		{
			name: "newline in file name",
			doc:  doc(memory.ScopeProject, "we\nird\tname.md", memory.TypeProject, "d"),
			want: "- [project] project/we_ird_name.md (2026-06-01T07:00:00Z): d\n",
		},
		{
			name: "no RelPath: base name, never the absolute path",
			doc: func() *memory.Document {
				d := doc(memory.ScopeUser, "x/notes.md", memory.TypeUser, "d")
				d.RelPath = ""
				return d
			}(),
			want: "- [user] user/notes.md (2026-06-01T07:00:00Z): d\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := BuildManifest([]*memory.Document{tt.doc})
			if diff := cmp.Diff(tt.want, m.Text()); diff != "" {
				t.Errorf("Text() mismatch (-want +got):\n%s", diff)
			}
			if m.Len() != 1 {
				t.Fatalf("Len() = %d, want 1", m.Len())
			}
			key := m.Keys()[0]
			if id, ok := m.Lookup(key); !ok || id != tt.doc.ID {
				t.Errorf("Lookup(%q) = %q, %v; want %q, true", key, id, ok, tt.doc.ID)
			}
			if strings.Contains(m.Text(), "/home/alice") {
				t.Errorf("manifest leaks the absolute path: %q", m.Text())
			}
		})
	}
}

func TestManifestPacking(t *testing.T) {
	small := func(rel string) *memory.Document {
		return doc(memory.ScopeProject, rel, memory.TypeProject, "short")
	}
	// A path long enough that its line alone nearly fills the manifest.
	huge := doc(memory.ScopeProject, strings.Repeat("p", MaxManifestBytes-60)+".md", memory.TypeProject, "")
	dupID := small("a.md")
	collide := doc(memory.ScopeProject, "b\n.md", memory.TypeProject, "x")
	collide2 := doc(memory.ScopeProject, "b\r.md", memory.TypeProject, "y") // same key "project/b_.md"

	tests := []struct {
		name        string
		docs        []*memory.Document
		wantKeys    []string
		wantSkipped int
	}{
		{"empty", nil, nil, 0},
		{"order kept", []*memory.Document{small("b.md"), small("a.md")}, []string{"project/b.md", "project/a.md"}, 0},
		{"nil skipped", []*memory.Document{nil, small("a.md")}, []string{"project/a.md"}, 1},
		{"repeated ID skipped", []*memory.Document{dupID, dupID}, []string{"project/a.md"}, 1},
		{"same rel path in both scopes is two documents",
			[]*memory.Document{small("a.md"), doc(memory.ScopeUser, "a.md", memory.TypeUser, "")},
			[]string{"project/a.md", "user/a.md"}, 0},
		{"sanitised key collision keeps the first", []*memory.Document{collide, collide2}, []string{"project/b_.md"}, 1},
		{"a line filling the manifest leaves no room for later ones",
			[]*memory.Document{huge, small("a.md")}, []string{huge.Scope.String() + "/" + huge.RelPath}, 1},
		{"not a prefix: a line that does not fit is skipped, later shorter ones kept",
			[]*memory.Document{small("a.md"), huge, small("c.md")},
			[]string{"project/a.md", "project/c.md"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := BuildManifest(tt.docs)
			if diff := cmp.Diff(tt.wantKeys, m.Keys()); diff != "" {
				t.Errorf("Keys() mismatch (-want +got):\n%s", diff)
			}
			if m.Skipped() != tt.wantSkipped {
				t.Errorf("Skipped() = %d, want %d", m.Skipped(), tt.wantSkipped)
			}
			if len(m.Text()) > MaxManifestBytes {
				t.Errorf("manifest is %d bytes, limit %d", len(m.Text()), MaxManifestBytes)
			}
			if got := strings.Count(m.Text(), "\n"); got != m.Len() {
				t.Errorf("%d lines for %d documents", got, m.Len())
			}
		})
	}
}

func TestManifestNilAndLookup(t *testing.T) {
	var m *Manifest
	if m.Len() != 0 || m.Text() != "" || m.Keys() != nil || m.Docs() != nil || m.Skipped() != 0 {
		t.Error("nil manifest is not empty")
	}
	if _, ok := m.Lookup("project/a.md"); ok {
		t.Error("nil manifest found a key")
	}
	d := doc(memory.ScopeProject, "a.md", memory.TypeProject, "x")
	m = BuildManifest([]*memory.Document{d})
	for _, k := range []string{"project/a.md ", "a.md", string(d.ID), "user/a.md", "PROJECT/a.md", ""} {
		if _, ok := m.Lookup(k); ok {
			t.Errorf("Lookup(%q) matched; matching must be exact", k)
		}
	}
	docs := m.Docs()
	docs[0] = nil
	if m.Docs()[0] != d {
		t.Error("Docs() exposes the manifest's own slice")
	}
	keys := m.Keys()
	keys[0] = "mutated"
	if m.Keys()[0] != "project/a.md" {
		t.Error("Keys() exposes the manifest's own slice")
	}
}
