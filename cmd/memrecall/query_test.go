package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestQueryCommandDeterministicOnExamples(t *testing.T) {
	t.Chdir("../..") // the repository root, as for `go run ./cmd/memrecall query`
	t.Setenv(envBaseURL, "")
	t.Setenv(envModel, "")
	var out, errb bytes.Buffer
	if code := run([]string{"query", "how do we deploy during the release freeze?"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	for _, want := range []string{
		"project: examples/memory/project",
		"RANK  SCORE",
		"release-freeze-q4.md",
		"Initial prompt: 3 documents (the lexical top five: no selector configured; telemetry phase refined, strategy heuristic)",
		"Selector: none configured",
		"Manifest: 16 documents",
		"# Saved memories",
		"memrecall.delivery phase=refined delivery_point=initial strategy=heuristic document_count=3",
		"Timings: scan",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// fakeChat is an OpenAI-compatible endpoint that answers with keys and
// records the request it got.
func fakeChat(t *testing.T, keys ...string) (*httptest.Server, *[]byte) {
	t.Helper()
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		content, _ := json.Marshal(map[string][]string{"selected_memories": keys})
		resp := map[string]any{"choices": []map[string]any{{
			"message":       map[string]string{"role": "assistant", "content": string(content)},
			"finish_reason": "stop",
		}}}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func TestQueryCommandWithSelector(t *testing.T) {
	srv, req := fakeChat(t, "project/release-freeze-q4.md", "user/terse-answers.md")
	t.Setenv(envBaseURL, srv.URL)
	t.Setenv(envModel, "test-model")
	t.Setenv(envAPIKey, "sk-secret")
	var out, errb bytes.Buffer
	args := []string{"--project", "../../examples/memory/project", "release freeze deploy", "--user", "../../examples/memory/user", "--tools", "Bash, mcp__github__create_pr"}
	if code := runQuery(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	// The fake endpoint answers in about a millisecond, so whether the
	// initial point saw the deterministic result first (fast two, then the
	// remainder at the tool result) or the settle (the refined two at
	// once) depends on the scheduler; on a loaded machine a cold scan can
	// even outlast the initial ceiling (nothing at first, the refined two
	// at the tool result). All three are correct turns.
	wants := []string{
		"tools:   Bash,mcp__github__create_pr",
		"Selector: test-model → strategy model, chose 2",
		"  user/terse-answers.md",
	}
	switch o := out.String(); {
	case strings.Contains(o, "Initial prompt: 2 documents (phase fast, strategy heuristic)"):
		wants = append(wants, "Tool result: 1 document (phase refined, strategy model)",
			"memrecall.delivery phase=refined delivery_point=tool_result strategy=model document_count=1")
	case strings.Contains(o, "Initial prompt: nothing injected"):
		wants = append(wants, "Tool result: 2 documents (phase refined, strategy model)",
			"memrecall.delivery phase=refined delivery_point=tool_result strategy=model document_count=2")
	default:
		wants = append(wants, "Initial prompt: 2 documents (phase refined, strategy model)",
			"memrecall.delivery phase=refined delivery_point=initial strategy=model document_count=2")
	}
	for _, want := range wants {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "sk-secret") {
		t.Error("the API key is printed")
	}
	if !strings.Contains(string(*req), "release freeze deploy") {
		t.Errorf("the selector request lacks the query: %s", *req)
	}
}

func TestQueryCommandArguments(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no text", []string{"--project", "x"}, 2, "missing query text"},
		{"blank text", []string{" "}, 2, "empty query text"},
		{"two texts", []string{"a", "b"}, 2, "one query text expected"},
		{"unknown flag", []string{"--nope", "a"}, 2, "flag provided but not defined"},
		{"help", []string{"-h"}, 0, "usage: memrecall query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := runQuery(tt.args, &out, &errb); code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if !strings.Contains(errb.String(), tt.err) {
				t.Errorf("stderr %q lacks %q", errb.String(), tt.err)
			}
		})
	}
}

func TestQueryCommandMissingRoot(t *testing.T) {
	t.Setenv(envBaseURL, "")
	var out, errb bytes.Buffer
	missing := t.TempDir() + "/missing"
	if code := runQuery([]string{"anything", "--project", missing}, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", code, errb.String())
	}
	if want := "memrecall query: no memory to read: project memory " + missing + " does not exist\n"; errb.String() != want || out.Len() != 0 {
		t.Errorf("stderr %q, stdout %q; want only %q", errb.String(), out.String(), want)
	}
}

// TestQueryFromStdin: "query -" reads the whole of standard input as the
// query, so a long query needs no quoting; an empty one is a usage error.
func TestQueryFromStdin(t *testing.T) {
	t.Setenv(envBaseURL, "")
	t.Chdir("../..")
	long := strings.Repeat("how do we deploy during the release freeze? ", 40)
	var out, errb bytes.Buffer
	if code := runQueryFrom([]string{"-", "--no-snapshot"}, strings.NewReader(long+"\n"), &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if want := fmt.Sprintf("query:   %q\n", strings.TrimSpace(long)); !strings.HasPrefix(out.String(), want) {
		t.Errorf("output does not start with the query read from stdin:\n%s", out.String()[:min(out.Len(), 300)])
	}
	for _, in := range []string{"", "  \n\t"} {
		out.Reset()
		errb.Reset()
		if code := runQueryFrom([]string{"-"}, strings.NewReader(in), &out, &errb); code != 2 || !strings.Contains(errb.String(), "empty query text on standard input") {
			t.Errorf("stdin %q: exit %d, stderr %q; want 2 and a message", in, code, errb.String())
		}
	}
}
