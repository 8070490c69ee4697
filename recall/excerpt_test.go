package recall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFarMatchIsShownAsAnExcerpt: a note whose only match is at character
// 3,000 of its body is delivered, and the prompt shows that passage (with
// a note of what was left out), within the prompt budget.
func TestFarMatchIsShownAsAnExcerpt(t *testing.T) {
	project, user := t.TempDir(), t.TempDir()
	filler := strings.Repeat("Routine notes about the nightly batch and its dashboards.\n", 60)
	filler = filler[:3000]
	passage := "The pgbouncer pool_size is 40 per replica; raise it only with the DBA."
	body := filler + "\n" + passage + "\n" + strings.Repeat("More routine text.\n", 40)
	if i := utf8.RuneCountInString(body[:strings.Index(body, "pgbouncer")]); i < 3000 {
		t.Fatalf("the match is at character %d, want ≥ 3,000", i)
	}
	files := map[string]string{
		"postgres.md": "---\ntype: reference\nname: Postgres runbook\ndescription: operating the database\n---\n" + body,
		"deploy.md":   "---\ntype: project\nname: Deploy checklist\ndescription: steps before a deploy\n---\nTag the release.\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(project, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := New(Options{ProjectDir: project, UserDir: user})
	defer e.Shutdown()
	inj := e.Query(t.Context(), Query{Text: "pgbouncer"}).Initial(t.Context())
	if len(inj.Docs) != 1 || filepath.Base(string(inj.Docs[0])) != "postgres.md" {
		t.Fatalf("delivered %v, want postgres.md", inj.Docs)
	}
	for _, want := range []string{passage, "characters left out", "Routine notes about"} {
		if !strings.Contains(inj.Text, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, inj.Text)
		}
	}
	if len(inj.Text) > MaxPromptBytes {
		t.Errorf("prompt of %d bytes, budget %d", len(inj.Text), MaxPromptBytes)
	}
}

// TestExcerptBodyFitsTheWindow: an excerpt is never longer than the body
// window it replaces, and it names how much it left out.
func TestExcerptBodyFitsTheWindow(t *testing.T) {
	body := strings.Repeat("é", 5000)
	start := len(strings.Repeat("é", 3000))
	got := excerptBody(body, start, start+len("éé"))
	if n := utf8.RuneCountInString(got); n > 1200 {
		t.Errorf("excerpt of %d characters, more than the window", n)
	}
	for _, want := range []string{"[… 2700 characters left out …]", "[… the rest of the body left out …]"} {
		if !strings.Contains(got, want) {
			t.Errorf("excerpt lacks %q", want)
		}
	}
}
