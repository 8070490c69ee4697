package memory

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParsePlain(t *testing.T) {
	long := strings.Repeat("word ", BodyWindow)
	tests := []struct {
		name, file, data string
		want             Parsed
		err              error
	}{
		{
			name: "Gemini's template", file: "release-freeze.md",
			data: "# Release freeze\n\nNo deploys from Thursday noon.\n- ask Sam first\n",
			want: Parsed{Type: TypeProject, Title: "Release freeze", Body: "No deploys from Thursday noon.\n- ask Sam first"},
		},
		{
			name: "heading after blank lines, closing hashes, tab", file: "a.md",
			data: "\n\n  #\tDeploy steps ##  \nrun the dry run",
			want: Parsed{Type: TypeProject, Title: "Deploy steps", Body: "run the dry run"},
		},
		{
			name: "no heading: the file name, the whole text", file: "sub/deploy-notes.md",
			data: "Deploys go through the staging cluster.\n\n# Later heading\n",
			want: Parsed{Type: TypeProject, Title: "deploy-notes", Body: "Deploys go through the staging cluster.\n\n# Later heading"},
		},
		{
			name: "a level-2 heading is not a title", file: "x.md",
			data: "## Sub\ntext",
			want: Parsed{Type: TypeProject, Title: "x", Body: "## Sub\ntext"},
		},
		{
			name: "hash without a blank is not a heading", file: "tags.md",
			data: "#tag text",
			want: Parsed{Type: TypeProject, Title: "tags", Body: "#tag text"},
		},
		{
			name: "heading only", file: "t.md",
			data: "# Only a title\n",
			want: Parsed{Type: TypeProject, Title: "Only a title"},
		},
		{
			name: "empty heading text", file: "e.md",
			data: "# ##\nbody",
			want: Parsed{Type: TypeProject, Title: "e", Body: "# ##\nbody"},
		},
		{
			name: "empty file", file: "empty.md",
			data: "",
			want: Parsed{Type: TypeProject, Title: "empty"},
		},
		{
			name: "blank file", file: "blank.md",
			data: " \n\t\n",
			want: Parsed{Type: TypeProject, Title: "blank"},
		},
		{
			name: "placeholder body", file: "p.md",
			data: "# P\n_No entries yet._\n",
			want: Parsed{Type: TypeProject, Title: "P"},
		},
		{
			name: "CRLF and a byte-order mark", file: "w.md",
			data: "\uFEFF# Windows note\r\nline one\r\nline two\r\n",
			want: Parsed{Type: TypeProject, Title: "Windows note", Body: "line one\nline two"},
		},
		{
			name: "file name without a stem", file: "dir/.md",
			data: "text",
			want: Parsed{Type: TypeProject, Title: "project", Body: "text"},
		},
		{
			name: "long body is marked truncated", file: "l.md",
			data: "# L\n" + long,
			want: Parsed{Type: TypeProject, Title: "L", Body: strings.TrimSpace(long), BodyTruncated: true},
		},
		{name: "binary", file: "b.md", data: "# B\x00\n", err: ErrBinary},
		{name: "invalid UTF-8", file: "u.md", data: "# U\n\xff\xfe", err: ErrInvalidUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := parsePlain([]byte(tt.data), true, nil, tt.file, TypeProject)
			if err != tt.err {
				t.Fatalf("error = %v, want %v", err, tt.err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parsePlain(%q) mismatch (-want +got):\n%s", tt.data, diff)
			}
		})
	}
}

// TestScanPlainNotes scans a tree in Gemini CLI's layout
// (~/.gemini/tmp/<slug>/memory: MEMORY.md, notes without frontmatter):
// the notes are documents only when Roots.PlainProject asks for them, and
// the user root keeps the frontmatter rule either way.
func TestScanPlainNotes(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, ".gemini", "tmp", "billing-api", "memory")
	user := t.TempDir()
	writeFile(t, proj, "MEMORY.md", "# Project memory\n- See "+proj+"/release-freeze.md for the freeze\n", 0)
	writeFile(t, proj, "release-freeze.md", "# Release freeze\n\nNo deploys from Thursday noon.\n", time.Hour)
	writeFile(t, proj, "grafana.md", "Dashboards live under ops/.\n", 2*time.Hour)
	writeFile(t, proj, "typed.md", topic("reference", "Typed", "with frontmatter"), 3*time.Hour)
	writeFile(t, proj, "broken.md", "---\nname: x\n", 4*time.Hour)
	writeFile(t, proj, "bin.md", "# Bin\x00", 5*time.Hour)
	writeFile(t, user, "plain.md", "# User note\ntext\n", time.Hour)

	off := scanRoots(t, Roots{Project: proj, User: user})
	if diff := cmp.Diff([]docView{{"project", "typed.md", "reference", "Typed"}}, view(off.Docs)); diff != "" {
		t.Errorf("option off: docs mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(skips(SkipNoFrontmatter, 3, SkipUnterminatedFrontmatter, 1, SkipBinary, 1), off.Skipped); diff != "" {
		t.Errorf("option off: skips mismatch (-want +got):\n%s", diff)
	}

	on := scanRoots(t, Roots{Project: proj, User: user, PlainProject: true})
	want := []docView{
		{"project", "typed.md", "reference", "Typed"},
		{"project", "grafana.md", "project", "grafana"},
		{"project", "release-freeze.md", "project", "Release freeze"},
	}
	if diff := cmp.Diff(want, view(on.Docs)); diff != "" {
		t.Errorf("option on: docs mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(skips(SkipNoFrontmatter, 1, SkipUnterminatedFrontmatter, 1, SkipBinary, 1), on.Skipped); diff != "" {
		t.Errorf("option on: skips mismatch (-want +got):\n%s", diff)
	}
	if got := on.Docs[len(on.Docs)-1]; got.Body != "No deploys from Thursday noon." || got.Description != "" {
		t.Errorf("release-freeze: body %q, description %q", got.Body, got.Description)
	}
}

// TestSnapshotKeepsPlainReadingApart: a snapshot written without plain
// notes does not hide them once the option is on, and one written with
// them does not bring them back once it is off.
func TestSnapshotKeepsPlainReadingApart(t *testing.T) {
	proj := t.TempDir()
	writeFile(t, proj, "note.md", "# Note\ntext\n", time.Hour)
	off := Roots{Project: proj}
	on := Roots{Project: proj, PlainProject: true}
	dir := t.TempDir()
	if SnapshotPath(dir, off) == SnapshotPath(dir, on) {
		t.Fatal("SnapshotPath ignores PlainProject")
	}
	// Even sharing one file, the readings do not mix (the tag differs).
	file := filepath.Join(dir, "shared.snap")
	for i, tc := range []struct {
		roots Roots
		docs  int
	}{{off, 0}, {on, 1}, {off, 0}, {on, 1}} {
		c := snapCatalog(tc.roots, file, "v1")
		res := scanCat(t, c)
		if len(res.Docs) != tc.docs {
			t.Errorf("scan %d (plain %v): %d docs, want %d", i, tc.roots.PlainProject, len(res.Docs), tc.docs)
		}
	}
}

// FuzzPlainNote drives the plain-note reader with arbitrary bytes: a
// Parsed that meets every invariant or ErrBinary / ErrInvalidUTF8, and a
// prefix read never fails where the whole file parses.
func FuzzPlainNote(f *testing.F) {
	for _, s := range []string{
		"# Release freeze\n\nNo deploys from Thursday noon.\n",
		"\uFEFF# Windows\r\nline\r\n",
		"no heading at all",
		"   # closed ##\n_No entries yet._",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, _, err := parsePlain(data, true, nil, "note.md", TypeProject)
		if err != nil {
			if err != ErrBinary && err != ErrInvalidUTF8 {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		checkParsed(t, p)
		if p.Description != "" || strings.ContainsAny(p.Title, "\n") {
			t.Errorf("description %q, title %q", p.Description, p.Title)
		}
		if _, _, perr := parsePlain(data[:len(data)/2], false, nil, "note.md", TypeProject); perr != nil {
			t.Errorf("prefix fails (%v) where the whole file parses", perr)
		}
	})
}
