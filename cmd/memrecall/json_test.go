package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// rewrite regenerates the golden files in testdata (the repository's one
// flag for golden files).
var rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata")

// jsonTree writes a small memory tree whose files are three days old, so
// the injected text's ages are the same on every run.
func jsonTree(t *testing.T) (project, user string) {
	t.Helper()
	dir := t.TempDir()
	project, user = filepath.Join(dir, "project"), filepath.Join(dir, "user")
	files := map[string]string{
		filepath.Join(project, "deploy.md"):        "---\ntype: reference\nname: Deploy checklist\ndescription: How we deploy and roll back during a release freeze\n---\nTag first, deploy the tag, watch the canary.\n",
		filepath.Join(project, "ops", "oncall.md"): "---\ntype: project\nname: On-call rota\ndescription: Who answers pages this quarter\n---\nThe rota lives in the wiki.\n",
		filepath.Join(project, "notes.md"):         "no frontmatter here\n",
		filepath.Join(user, "style.md"):            "---\ntype: feedback\nname: Terse answers\ndescription: No closing summaries\n---\nThe user reads the diff.\n",
	}
	mtime := time.Now().Add(-72 * time.Hour)
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	return project, user
}

// normalize replaces what differs between runs — the temporary roots,
// modification times, durations and the worker count — so the rest can
// be compared with a golden file.
func normalize(t *testing.T, raw []byte, project, user string) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, raw)
	}
	var walk func(any) any
	walk = func(x any) any {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				switch {
				case strings.HasSuffix(k, "_us") || k == "workers":
					x[k] = 0
				case k == "modified":
					x[k] = "<mtime>"
				default:
					x[k] = walk(v)
				}
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case string:
			return strings.NewReplacer(project, "<project>", user, "<user>").Replace(x)
		}
		return x
	}
	out, err := json.MarshalIndent(walk(v), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *rewrite {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-golden +got); if the change is meant, run go test ./cmd/memrecall -run JSON -rewrite and update docs/cli-json.md:\n%s", path, diff)
	}
}

// TestScanJSON pins the scan --json schema (docs/cli-json.md) on a fixed tree.
func TestScanJSON(t *testing.T) {
	project, user := jsonTree(t)
	var out, errb bytes.Buffer
	if code := run([]string{"scan", "--json", "--project", project, "--user", user}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	checkGolden(t, "scan.golden.json", normalize(t, out.Bytes(), project, user))
}

// TestQueryJSON pins the query --json schema (docs/cli-json.md) on a fixed
// tree, deterministic only.
func TestQueryJSON(t *testing.T) {
	t.Setenv(envBaseURL, "")
	project, user := jsonTree(t)
	var out, errb bytes.Buffer
	args := []string{"query", "how do we deploy during the release freeze?", "--json", "--no-snapshot", "--project", project, "--user", user, "--tools", "Bash"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	checkGolden(t, "query.golden.json", normalize(t, out.Bytes(), project, user))
}

// controlName is a topic file name holding a tab and an escape sequence:
// the manifest spells both as "_", and --json must name the document by
// the same raw path in every field.
const controlName = "freeze\tplan\x1b[31m.md"

// controlTree is a memory tree with one topic under controlName.
func controlTree(t *testing.T) (project, user string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("Windows file names cannot hold control characters")
	}
	dir := t.TempDir()
	project, user = filepath.Join(dir, "project"), filepath.Join(dir, "user")
	for _, d := range []string{project, user} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(project, controlName)
	body := "---\ntype: project\nname: Freeze plan\ndescription: What ships during the release freeze\n---\nOnly fixes ship.\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Now().Add(-72 * time.Hour)
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return project, user
}

// keysMatchDocuments checks that every document key of a query --json
// output (selector.selected, deliveries[].documents) is some ranked
// document's scope + "/" + path, and returns the keys it checked.
func keysMatchDocuments(t *testing.T, raw []byte) []string {
	t.Helper()
	var out queryJSON
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, raw)
	}
	docs := map[string]bool{}
	for _, r := range out.Ranking {
		docs[r.Doc.Scope+"/"+r.Doc.Path] = true
	}
	keys := slices.Clone(out.Selector.Selected)
	for _, d := range out.Deliveries {
		keys = append(keys, d.Documents...)
	}
	for _, k := range keys {
		if !docs[k] {
			t.Errorf("key %q names no document; documents: %q", k, slices.Sorted(maps.Keys(docs)))
		}
	}
	return keys
}

// TestQueryJSONControlName pins query --json on a file name holding
// control characters (deterministic, golden) and checks that a model's
// answer, given as the manifest's key, is reported under the document's
// own path.
func TestQueryJSONControlName(t *testing.T) {
	project, user := controlTree(t)
	const query = "what ships during the release freeze?"
	t.Run("deterministic", func(t *testing.T) {
		t.Setenv(envBaseURL, "")
		var out, errb bytes.Buffer
		args := []string{"query", query, "--json", "--no-snapshot", "--project", project, "--user", user}
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		if keys := keysMatchDocuments(t, out.Bytes()); len(keys) == 0 {
			t.Errorf("nothing delivered:\n%s", out.String())
		}
		checkGolden(t, "query_control.golden.json", normalize(t, out.Bytes(), project, user))
	})
	t.Run("model", func(t *testing.T) {
		srv, _ := fakeChat(t, "project/freeze_plan_[31m.md") // the manifest key
		t.Setenv(envBaseURL, srv.URL)
		t.Setenv(envModel, "test-model")
		t.Setenv(envAPIKey, "")
		var out, errb bytes.Buffer
		args := []string{"query", query, "--json", "--no-snapshot", "--project", project, "--user", user}
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		keysMatchDocuments(t, out.Bytes())
		var got queryJSON
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if want := []string{"project/" + controlName}; got.Selector.Strategy == "model" && !cmp.Equal(want, got.Selector.Selected) {
			t.Errorf("selected = %q, want %q", got.Selector.Selected, want)
		} else if got.Selector.Strategy != "model" {
			t.Errorf("strategy %q (error %q), want the model's answer", got.Selector.Strategy, got.Selector.ErrorKind)
		}
	})
}
