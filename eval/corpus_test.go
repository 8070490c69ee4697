package eval

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// validCorpus is the smallest corpus that passes validation; the table
// below breaks one thing at a time.
func validCorpus() map[string]any {
	return map[string]any{
		"name": "tiny",
		"documents": []any{
			map[string]any{"id": "deploy", "scope": "project", "type": "reference",
				"name": "Deploy", "description": "how we deploy", "body": "canary first",
				"modified": "2026-06-01T09:00:00Z"},
			map[string]any{"id": "prefs", "scope": "user", "type": "user",
				"name": "Prefs", "description": "", "body": "terse answers",
				"modified": "2026-06-02T09:00:00+02:00"},
		},
		"cases": []any{
			map[string]any{"id": "c1", "slice": "english", "query": "deploy canary",
				"relevant": []any{"deploy"}, "top": "deploy", "recent_tools": []any{}},
			map[string]any{"id": "c2", "slice": "no-result", "query": "helm",
				"relevant": []any{}},
		},
	}
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseValid(t *testing.T) {
	c, err := Parse(encode(t, validCorpus()))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	want := &Corpus{
		Name: "tiny",
		Documents: []Document{
			{ID: "deploy", Scope: "project", Type: "reference", Name: "Deploy",
				Description: "how we deploy", Body: "canary first", Modified: "2026-06-01T09:00:00Z"},
			{ID: "prefs", Scope: "user", Type: "user", Name: "Prefs",
				Body: "terse answers", Modified: "2026-06-02T09:00:00+02:00"},
		},
		Cases: []Case{
			{ID: "c1", Slice: "english", Query: "deploy canary", Relevant: []string{"deploy"},
				Top: "deploy", RecentTools: []string{}},
			{ID: "c2", Slice: "no-result", Query: "helm", Relevant: []string{}},
		},
	}
	if d := cmp.Diff(want, c); d != "" {
		t.Errorf("Parse (-want +got):\n%s", d)
	}
	if !c.Cases[1].NoResult() || c.Cases[0].NoResult() {
		t.Errorf("NoResult: got c1=%v c2=%v", c.Cases[0].NoResult(), c.Cases[1].NoResult())
	}
}

func TestParseErrors(t *testing.T) {
	doc := func(c map[string]any, i int) map[string]any { return c["documents"].([]any)[i].(map[string]any) }
	kase := func(c map[string]any, i int) map[string]any { return c["cases"].([]any)[i].(map[string]any) }
	tests := []struct {
		name   string
		raw    string // used instead of the mutated corpus when set
		mutate func(c map[string]any)
		want   error
		says   string // the message must name the problem
	}{
		{name: "not json", raw: "{", want: ErrSyntax, says: "malformed JSON"},
		{name: "syntax error located", raw: "{\n  \"name\": \"x\",\n  \"documents\": [}", want: ErrSyntax, says: "at line 3, column"},
		{name: "trailing data", raw: `{"name":"x","documents":[],"cases":[]} {}`, want: ErrSyntax, says: "after the corpus"},
		{name: "unknown field", mutate: func(c map[string]any) { kase(c, 0)["relevent"] = []any{} }, want: ErrSyntax, says: "relevent"},
		{name: "wrong kind", mutate: func(c map[string]any) { kase(c, 0)["relevant"] = "deploy" }, want: ErrSyntax, says: "relevant"},
		{name: "wrong kind located", mutate: func(c map[string]any) { doc(c, 0)["modified"] = 5 }, want: ErrSyntax, says: "at line 1, column"},
		{name: "no documents", mutate: func(c map[string]any) { c["documents"] = []any{} }, want: ErrEmpty, says: "no documents"},
		{name: "no cases", mutate: func(c map[string]any) { c["cases"] = []any{} }, want: ErrEmpty, says: "no cases"},
		{name: "empty doc id", mutate: func(c map[string]any) { doc(c, 0)["id"] = "" }, want: ErrBadID, says: "document #1"},
		{name: "path in id", mutate: func(c map[string]any) { doc(c, 0)["id"] = "../etc/passwd" }, want: ErrBadID, says: `"../etc/passwd"`},
		{name: "slash in id", mutate: func(c map[string]any) { doc(c, 0)["id"] = "a/b" }, want: ErrBadID, says: "letters, digits"},
		{name: "dot file id", mutate: func(c map[string]any) { doc(c, 0)["id"] = ".hidden" }, want: ErrBadID, says: "starting with"},
		{name: "md suffix", mutate: func(c map[string]any) { doc(c, 0)["id"] = "deploy.md" }, want: ErrBadID, says: "without .md"},
		{name: "index file", mutate: func(c map[string]any) { doc(c, 0)["id"] = "memory" }, want: ErrBadID, says: "MEMORY.md"},
		{name: "long id", mutate: func(c map[string]any) { doc(c, 0)["id"] = strings.Repeat("a", 121) }, want: ErrBadID, says: "longer than"},
		{name: "duplicate doc id", mutate: func(c map[string]any) { doc(c, 1)["id"] = "deploy" }, want: ErrDuplicateID, says: "unique across both scopes"},
		{name: "duplicate doc id ignoring case", mutate: func(c map[string]any) { doc(c, 1)["id"] = "Deploy" }, want: ErrDuplicateID, says: `"Deploy"`},
		{name: "bad scope", mutate: func(c map[string]any) { doc(c, 0)["scope"] = "global" }, want: ErrBadScope, says: `"global"`},
		{name: "bad type", mutate: func(c map[string]any) { doc(c, 0)["type"] = "note" }, want: ErrBadType, says: `"note"`},
		{name: "bad timestamp", mutate: func(c map[string]any) { doc(c, 0)["modified"] = "2026-06-01 09:00" }, want: ErrBadTimestamp, says: `document "deploy"`},
		{name: "missing timestamp", mutate: func(c map[string]any) { delete(doc(c, 0), "modified") }, want: ErrBadTimestamp, says: "RFC 3339"},
		{name: "control in name", mutate: func(c map[string]any) { doc(c, 0)["name"] = "a\rb" }, want: ErrBadText, says: "U+000D"},
		{name: "nul in body", mutate: func(c map[string]any) { doc(c, 0)["body"] = "a\x00b" }, want: ErrBadText, says: "NUL"},
		{name: "empty case id", mutate: func(c map[string]any) { kase(c, 0)["id"] = "" }, want: ErrBadID, says: "case #1"},
		{name: "duplicate case id", mutate: func(c map[string]any) { kase(c, 1)["id"] = "c1" }, want: ErrDuplicateID, says: `case "c1"`},
		{name: "unknown slice", mutate: func(c map[string]any) { kase(c, 0)["slice"] = "English" }, want: ErrUnknownSlice, says: "known: english, chinese"},
		{name: "empty query", mutate: func(c map[string]any) { kase(c, 0)["query"] = "  " }, want: ErrEmptyQuery, says: `case "c1"`},
		{name: "unknown relevant", mutate: func(c map[string]any) { kase(c, 0)["relevant"] = []any{"nope"} }, want: ErrUnknownDocument, says: `relevant "nope"`},
		{name: "duplicate relevant", mutate: func(c map[string]any) { kase(c, 0)["relevant"] = []any{"deploy", "deploy"} }, want: ErrDuplicateID, says: "in the list"},
		{name: "unknown top", mutate: func(c map[string]any) { kase(c, 0)["top"] = "nope" }, want: ErrUnknownDocument, says: `top "nope"`},
		{name: "top not relevant", mutate: func(c map[string]any) { kase(c, 0)["top"] = "prefs" }, want: ErrBadTop, says: `"prefs"`},
		{name: "no-result with relevant", mutate: func(c map[string]any) { kase(c, 1)["relevant"] = []any{"deploy"} }, want: ErrSliceMismatch, says: "no-result case"},
		{name: "semantic without relevant", mutate: func(c map[string]any) { kase(c, 1)["slice"] = "semantic-no-lexical" }, want: ErrSliceMismatch, says: "semantic case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.raw)
			if tt.raw == "" {
				c := validCorpus()
				tt.mutate(c)
				data = encode(t, c)
			}
			_, err := Parse(data)
			if !errors.Is(err, tt.want) || !errors.Is(err, ErrCorpus) {
				t.Fatalf("Parse error = %v, want %v wrapped in %v", err, tt.want, ErrCorpus)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.says) {
				t.Errorf("error %q does not say %q", msg, tt.says)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is not one line", msg)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c := validCorpus()
	delete(c, "name")
	p := filepath.Join(dir, "team-notes.json")
	if err := os.WriteFile(p, encode(t, c), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if got.Name != "team-notes" {
		t.Errorf("a corpus without a name is named %q, want the file's base name", got.Name)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); !errors.Is(err, ErrCorpus) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) error = %v, want ErrCorpus wrapping ErrNotExist", err)
	}
}

func TestIsLexical(t *testing.T) {
	var lexical []string
	for _, s := range Slices() {
		if IsLexical(s) {
			lexical = append(lexical, s)
		}
	}
	want := []string{"english", "chinese", "japanese", "korean", "mixed", "nfkc",
		"body-only", "other-script", "thai", "noise-filter"}
	if d := cmp.Diff(want, lexical); d != "" {
		t.Errorf("lexical slices (-want +got):\n%s", d)
	}
	if IsLexical(SliceOverall) || IsLexical("bogus") {
		t.Error("IsLexical accepts a name that is not a case slice")
	}
}
