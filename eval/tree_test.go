package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
)

// TestTopicFileRoundTrip: whatever a valid document holds, the memory
// parser reads back the same type, title, description and body from the
// file the harness writes — so the harness measures the corpus, not an
// artefact of quoting.
func TestTopicFileRoundTrip(t *testing.T) {
	text := rapid.StringOf(rapid.OneOf(
		rapid.RuneFrom([]rune(`"\'#:-_ `+"\n\tabcé漢ｻｰ")),
		rapid.Rune(),
	))
	rapid.Check(t, func(t *rapid.T) {
		d := Document{
			ID:          "doc",
			Scope:       "project",
			Type:        rapid.SampledFrom([]string{"user", "feedback", "project", "reference"}).Draw(t, "type"),
			Name:        strings.TrimSpace(text.Draw(t, "name")),
			Description: strings.TrimSpace(text.Draw(t, "description")),
			Body:        text.Draw(t, "body"),
			Modified:    "2026-06-01T09:00:00Z",
		}
		if d.validate(0) != nil {
			t.Skip("not a valid document")
		}
		p, err := memory.Parse(TopicFile(&d))
		if err != nil {
			t.Fatalf("Parse(TopicFile): %v\n%s", err, TopicFile(&d))
		}
		typ, _ := memory.ParseType(d.Type)
		title := d.Name
		if title == "" {
			title = d.Type
		}
		// CRLF is read as LF (spec §2.3): that is the format, not a loss.
		body := strings.TrimSpace(strings.ReplaceAll(d.Body, "\r\n", "\n"))
		if body == "_No entries yet._" {
			body = ""
		}
		if n := utf8.RuneCountInString(body); n > memory.BodyWindow {
			body = string([]rune(body)[:memory.BodyWindow])
		}
		got := memory.Parsed{Type: p.Type, Title: p.Title, Description: p.Description, Body: strings.TrimSpace(p.Body)}
		want := memory.Parsed{Type: typ, Title: title, Description: d.Description, Body: strings.TrimSpace(body)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round trip (-want +got):\n%s\nfile:\n%s", diff, TopicFile(&d))
		}
	})
}

func TestWriteTreeScan(t *testing.T) {
	c, err := Parse(encode(t, validCorpus()))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tree, err := c.WriteTree(dir)
	if err != nil {
		t.Fatalf("WriteTree: %v", err)
	}
	docs, ids, err := tree.Scan(context.Background(), c)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	type seen struct {
		ID, Scope, RelPath, Title string
		Modified                  time.Time
	}
	var got []seen
	for _, d := range docs {
		got = append(got, seen{ids[d.ID], d.Scope.String(), d.RelPath, d.Title, d.Modified.UTC()})
	}
	want := []seen{
		{"deploy", "project", "deploy.md", "Deploy", time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)},
		{"prefs", "user", "prefs.md", "Prefs", time.Date(2026, 6, 2, 7, 0, 0, 0, time.UTC)},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("scanned tree (-want +got):\n%s", d)
	}
}

// TestScanReportsSkippedDocument: a file the scanner refuses must fail the
// run by name instead of shrinking the corpus silently.
func TestScanReportsSkippedDocument(t *testing.T) {
	c, err := Parse(encode(t, validCorpus()))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tree, err := c.WriteTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Damage one file behind the harness's back.
	if err := os.WriteFile(filepath.Join(tree.Roots.User, "prefs.md"), []byte("no frontmatter"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = tree.Scan(context.Background(), c)
	if err == nil || !strings.Contains(err.Error(), `document "prefs"`) {
		t.Fatalf("Scan error = %v, want one naming document \"prefs\"", err)
	}
}
