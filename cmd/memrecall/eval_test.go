package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runEvalCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"eval"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestEvalFixtureMarkdown(t *testing.T) {
	code, out, errs := runEvalCmd(t)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"## Quality: memrecall-fixture-v1", "| **overall** |", "## Delivery", "| tool-free | 3000 ms |"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestEvalJSON(t *testing.T) {
	code, out, errs := runEvalCmd(t, "--json", "--no-delivery")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rep struct {
		Corpus struct {
			Name      string `json:"name"`
			Documents int    `json:"documents"`
			Cases     int    `json:"cases"`
		} `json:"corpus"`
		Random     float64          `json:"random_recall_at_5"`
		Quality    []map[string]any `json:"quality"`
		Categories []struct {
			Scorer   string `json:"scorer"`
			Category string `json:"category"`
			Cases    int    `json:"cases"`
		} `json:"categories"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not one JSON object: %v", err)
	}
	if rep.Corpus.Documents < 35 || rep.Corpus.Cases < 90 || len(rep.Quality) == 0 {
		t.Errorf("corpus %+v with %d quality rows", rep.Corpus, len(rep.Quality))
	}
	// Each scorer's category rows count every case once.
	perScorer := map[string]int{}
	for _, c := range rep.Categories {
		if c.Category == "" {
			t.Errorf("a category row without its category: %+v", c)
		}
		perScorer[c.Scorer] += c.Cases
	}
	if len(perScorer) != 2 || perScorer["memrecall"] != rep.Corpus.Cases || perScorer["legacy"] != rep.Corpus.Cases {
		t.Errorf("category rows count %v cases per scorer, want %d each for memrecall and legacy", perScorer, rep.Corpus.Cases)
	}
}

func TestEvalOtherCorpus(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "team.json")
	if err := os.WriteFile(good, []byte(`{"name": "team", "documents": [
		{"id": "oncall", "scope": "user", "type": "reference", "name": "On-call", "description": "pager rota",
		 "body": "Escalate after fifteen minutes.", "modified": "2026-03-01T08:00:00Z"}],
		"cases": [{"id": "q1", "slice": "english", "query": "escalate pager", "relevant": ["oncall"], "top": "oncall"},
		          {"id": "q2", "slice": "no-result", "query": "kubernetes", "relevant": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runEvalCmd(t, "--corpus", good)
	if code != 0 || !strings.Contains(out, "## Quality: team") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"name": "bad", "documents": [
		{"id": "a", "scope": "user", "type": "user", "name": "", "description": "", "body": "x", "modified": "2026-03-01T08:00:00Z"}],
		"cases": [{"id": "q1", "slice": "engilsh", "query": "x", "relevant": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runEvalCmd(t, "--corpus", bad)
	if code != 1 || out != "" {
		t.Errorf("malformed corpus: exit %d, stdout %q", code, out)
	}
	if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, `unknown slice "engilsh"`) {
		t.Errorf("malformed corpus: want one line naming the slice, got %q", errs)
	}
}

func TestEvalUsage(t *testing.T) {
	if code, _, _ := runEvalCmd(t, "--nope"); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
	if code, _, _ := runEvalCmd(t, "extra"); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
	if code, _, errs := runEvalCmd(t, "--corpus", filepath.Join(t.TempDir(), "missing.json")); code != 1 || !strings.Contains(errs, "missing.json") {
		t.Errorf("missing corpus: exit %d, stderr %q", code, errs)
	}
}
