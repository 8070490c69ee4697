package memory

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNoteTypeAndTitle: the one type rule and the one title rule every
// reader (flat, YAML, plain) applies, and the same rules seen through
// Parse and the plain reader.
func TestNoteTypeAndTitle(t *testing.T) {
	for _, tc := range []struct {
		name      string
		typ, meta string
		want      Type
		err       error
	}{
		{"type", "project", "", TypeProject, nil},
		{"type wins over metadata.type", "user", "feedback", TypeUser, nil},
		{"metadata.type when type is absent", "", "reference", TypeReference, nil},
		{"neither", "", "", 0, ErrMissingType},
		{"unknown spelling", "note", "", 0, ErrUnknownType},
		{"an unknown type is not replaced by metadata.type", "note", "user", 0, ErrUnknownType},
	} {
		got, err := noteType([]byte(tc.typ), []byte(tc.meta))
		if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("%s: noteType = %v, %v; want %v, %v", tc.name, got, err, tc.want, tc.err)
		}
	}
	titles := []struct {
		name string
		in   []byte // a note, through Parse (frontmatter) or parsePlain
		file string // "" for Parse
		want string
	}{
		{"name", []byte("---\ntype: user\nname: Role\ntitle: Other\n---\n"), "", "Role"},
		{"title without name", []byte("---\ntype: user\ntitle: Other\n---\n"), "", "Other"},
		{"neither: the type's name", []byte("---\ntype: feedback\n---\n"), "", TypeFeedback.String()},
		{"YAML, name", []byte("---\ntype: user\nname: |\n  Role\n---\n"), "", "Role\n"},
		{"YAML, neither", []byte("---\nmetadata:\n  type: project\n---\n"), "", TypeProject.String()},
		{"plain, heading", []byte("# Deploy steps\nbody\n"), "notes/deploy.md", "Deploy steps"},
		{"plain, file name", []byte("body\n"), `notes\deploy.md`, "deploy"},
		{"plain, no usable file name: the type's name", []byte("body\n"), "/", TypeProject.String()},
	}
	var got, want []string
	for _, tc := range titles {
		var p Parsed
		var err error
		if tc.file == "" {
			p, err = Parse(tc.in)
		} else {
			p, _, err = parsePlain(tc.in, true, nil, tc.file, TypeProject)
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		got = append(got, tc.name+": "+p.Title)
		want = append(want, tc.name+": "+tc.want)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("titles (-want +got):\n%s", d)
	}
}
