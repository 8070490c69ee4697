package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/telemetry"
)

const testAPIKey = "sk-test-SECRET-0123456789"

// completion is a chat-completions response whose first choice carries
// content.
func completion(content string) string {
	b, err := json.Marshal(map[string]any{
		"id":     "chatcmpl-1",
		"object": "chat.completion",
		"model":  "test-model",
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": content},
			"finish_reason": "stop",
		}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
	})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// reply is a canned HTTP response.
type reply struct {
	status int
	body   string
}

// serve starts a chat-completions server answering every request with r and
// counting requests.
func serve(t *testing.T, r reply) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		hits.Add(1)
		io.Copy(io.Discard, req.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(r.status)
		io.WriteString(w, r.body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func testSelector(srv *httptest.Server, maxResponse int64) Selector {
	return mustOpenAI(OpenAIConfig{
		BaseURL:          srv.URL + "/v1/",
		Model:            "test-model",
		APIKey:           testAPIKey,
		HTTPClient:       srv.Client(),
		MaxResponseBytes: maxResponse,
	})
}

// mustOpenAI builds the adapter from a configuration the test knows to be
// valid.
func mustOpenAI(cfg OpenAIConfig) Selector {
	sel, err := OpenAI(cfg)
	if err != nil {
		panic(err)
	}
	return sel
}

func TestOpenAIRequestBody(t *testing.T) {
	m, _ := fixture()
	type captured struct {
		method, path, auth, contentType string
		body                            map[string]any
	}
	got := make(chan captured, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := captured{method: r.Method, path: r.URL.Path, auth: r.Header.Get("Authorization"), contentType: r.Header.Get("Content-Type")}
		if err := json.NewDecoder(r.Body).Decode(&c.body); err != nil {
			t.Errorf("request body is not JSON: %v", err)
		}
		got <- c
		io.WriteString(w, completion(`{"selected_memories":["project/b.md","project/a.md"]}`))
	}))
	defer srv.Close()

	req := Request{
		Query:       "how do we deploy <prod> & roll back?",
		Manifest:    m,
		RecentTools: []string{"mcp__github__create_issue", "Bash\nrm -rf"},
		Limit:       3,
	}
	keys, err := testSelector(srv, 0).Select(context.Background(), req)
	if err != nil {
		t.Fatalf("Select: %v", err)
	}
	if diff := cmp.Diff([]string{"project/b.md", "project/a.md"}, keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}

	c := <-got
	if c.method != http.MethodPost || c.path != "/v1/chat/completions" {
		t.Errorf("request %s %s, want POST /v1/chat/completions", c.method, c.path)
	}
	if c.auth != "Bearer "+testAPIKey || c.contentType != "application/json" {
		t.Errorf("headers: Authorization %q, Content-Type %q", c.auth, c.contentType)
	}
	temp, ok := c.body["temperature"].(float64)
	if !ok || temp != 0 {
		t.Errorf("temperature = %v (present %v), want an explicit 0", c.body["temperature"], ok)
	}
	if c.body["model"] != "test-model" || c.body["stream"] != false {
		t.Errorf("model %v, stream %v", c.body["model"], c.body["stream"])
	}
	wantFormat := map[string]any{
		"type": "json_schema",
		"json_schema": map[string]any{
			"name":   "memory_selection",
			"strict": true,
			"schema": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"selected_memories": map[string]any{
						"type":     "array",
						"items":    map[string]any{"type": "string"},
						"maxItems": float64(3),
					},
				},
				"required":             []any{"selected_memories"},
				"additionalProperties": false,
			},
		},
	}
	if diff := cmp.Diff(wantFormat, c.body["response_format"]); diff != "" {
		t.Errorf("response_format (-want +got):\n%s", diff)
	}
	var msgs []chatMessage
	raw, _ := json.Marshal(c.body["messages"])
	if err := json.Unmarshal(raw, &msgs); err != nil || len(msgs) != 2 {
		t.Fatalf("messages = %s", raw)
	}
	if msgs[0].Role != "system" || msgs[1].Role != "user" {
		t.Errorf("roles %q, %q", msgs[0].Role, msgs[1].Role)
	}
	for _, want := range []string{"at most 3", "empty list", "warnings, gotchas, known issues", "exactly"} {
		if !strings.Contains(msgs[0].Content, want) {
			t.Errorf("system prompt lacks %q", want)
		}
	}
	for _, want := range []string{req.Query, m.Text(), "mcp__github__create_issue\n", "Bash rm -rf\n", "at most 3"} {
		if !strings.Contains(msgs[1].Content, want) {
			t.Errorf("user message lacks %q", want)
		}
	}
	if strings.Contains(string(raw), "/home/alice") {
		t.Error("request leaks absolute paths")
	}
}

func TestOpenAIThroughSettle(t *testing.T) {
	m, ids := fixture()
	fallback := func(kind ErrorKind, err error) Outcome {
		return Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: kind, Err: err}
	}
	const limit = 2048
	padded := func(n int) string { // a valid completion padded to n bytes
		c := completion(`{"selected_memories":["project/a.md"]}`)
		return c + strings.Repeat(" ", n-len(c))
	}
	tests := []struct {
		name  string
		reply reply
		want  Outcome
	}{
		{"normal", reply{200, completion(`{"selected_memories":["project/d.md","project/a.md"]}`)},
			Outcome{Strategy: telemetry.StrategyModel, Docs: []memory.ID{ids[3], ids[0]}}},
		{"empty selection", reply{200, completion(`{"selected_memories":[]}`)}, Outcome{Strategy: telemetry.StrategyNone}},
		{"fenced content tolerated", reply{200, completion("```json\n{\"selected_memories\":[\"project/c.md\"]}\n```")},
			Outcome{Strategy: telemetry.StrategyModel, Docs: []memory.ID{ids[2]}}},
		{"response exactly at the size limit", reply{200, padded(limit)}, Outcome{Strategy: telemetry.StrategyModel, Docs: []memory.ID{ids[0]}}},
		{"response one byte over the limit", reply{200, padded(limit + 1)}, fallback(telemetry.ErrorResponseTooLarge, ErrResponseTooLarge)},
		{"oversized response", reply{200, completion(`{"selected_memories":["` + strings.Repeat("x", 1<<20) + `"]}`)},
			fallback(telemetry.ErrorResponseTooLarge, ErrResponseTooLarge)},
		{"body is not JSON", reply{200, "<html>bad gateway</html>"}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"truncated JSON", reply{200, completion(`{"selected_memories":["a`)[:40]}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"no choices", reply{200, `{"choices":[]}`}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"null content", reply{200, `{"choices":[{"message":{"content":null}}]}`}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"content is prose", reply{200, completion("I think project/a.md fits.")}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"schema: string instead of array", reply{200, completion(`{"selected_memories":"project/a.md"}`)}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"schema: numbers in array", reply{200, completion(`{"selected_memories":[1,2]}`)}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"schema: missing key", reply{200, completion(`{"memories":["project/a.md"]}`)}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"schema: null list", reply{200, completion(`{"selected_memories":null}`)}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"schema: trailing data", reply{200, completion(`{"selected_memories":[]} {"selected_memories":["project/a.md"]}`)}, fallback(telemetry.ErrorMalformed, ErrMalformed)},
		{"refusal", reply{200, `{"choices":[{"message":{"content":null,"refusal":"I can't help with that."}}]}`}, fallback(telemetry.ErrorRefused, ErrRefused)},
		{"unknown path", reply{200, completion(`{"selected_memories":["project/a.md","project/nope.md"]}`)}, fallback(telemetry.ErrorUnknownDocument, ErrUnknownDocument)},
		{"too many", reply{200, completion(`{"selected_memories":["project/a.md","project/b.md","project/c.md","project/d.md","project/e.md","project/f.md"]}`)},
			fallback(telemetry.ErrorTooMany, ErrTooMany)},
		{"duplicate", reply{200, completion(`{"selected_memories":["project/a.md","project/a.md"]}`)}, fallback(telemetry.ErrorDuplicate, ErrDuplicate)},
		{"400", reply{400, `{"error":{"message":"response_format is not supported","type":"invalid_request_error"}}`}, fallback(telemetry.ErrorHTTPStatus, ErrStatus)},
		{"429", reply{429, `{"error":{"message":"rate limited"}}`}, fallback(telemetry.ErrorHTTPStatus, ErrStatus)},
		{"500", reply{500, `internal error`}, fallback(telemetry.ErrorHTTPStatus, ErrStatus)},
		{"503", reply{503, ``}, fallback(telemetry.ErrorHTTPStatus, ErrStatus)},
		{"502 with a huge body is still a status error", reply{502, strings.Repeat("x", 1<<20)}, fallback(telemetry.ErrorHTTPStatus, ErrStatus)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, hits := serve(t, tt.reply)
			got := Settle(context.Background(), testSelector(srv, limit), Request{Query: "q", Manifest: m})
			checkOutcome(t, got, tt.want)
			if hits.Load() != 1 {
				t.Errorf("%d requests, want 1", hits.Load())
			}
			if got.Err != nil && strings.Contains(got.Err.Error(), testAPIKey) {
				t.Errorf("error leaks the API key: %v", got.Err)
			}
		})
	}
}

func TestOpenAIStatusError(t *testing.T) {
	m, _ := fixture()
	srv, _ := serve(t, reply{401, `{"error":{"message":"Incorrect API key provided: ` + testAPIKey + `\nsee docs"}}`})
	_, err := testSelector(srv, 0).Select(context.Background(), Request{Manifest: m})
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 401 {
		t.Fatalf("err = %v, want a *StatusError 401", err)
	}
	if diff := cmp.Diff("Incorrect API key provided: [redacted] see docs", se.Message); diff != "" {
		t.Errorf("Message (-want +got):\n%s", diff)
	}
	if strings.Contains(err.Error(), testAPIKey) {
		t.Errorf("error leaks the API key: %v", err)
	}
}

func TestOpenAIRequestTooLarge(t *testing.T) {
	m, _ := fixture()
	srv, hits := serve(t, reply{200, completion(`{"selected_memories":[]}`)})
	sel := mustOpenAI(OpenAIConfig{BaseURL: srv.URL, Model: "m", HTTPClient: srv.Client(), MaxRequestBytes: 1024})
	got := Settle(context.Background(), sel, Request{Query: "q", Manifest: m})
	checkOutcome(t, got, Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorRequestTooLarge, Err: ErrRequestTooLarge})
	if hits.Load() != 0 {
		t.Errorf("an oversized request was sent")
	}
}

func TestOpenAIHugeQueryIsCut(t *testing.T) {
	m, _ := fixture()
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		io.WriteString(w, completion(`{"selected_memories":[]}`))
	}))
	defer srv.Close()
	query := "HEAD " + strings.Repeat("log line é\n", 20000) + " TAIL?"
	if _, err := testSelector(srv, 0).Select(context.Background(), Request{Query: query, Manifest: m}); err != nil {
		t.Fatalf("Select: %v", err)
	}
	if len(body) > DefaultMaxRequestBytes {
		t.Errorf("request is %d bytes", len(body))
	}
	for _, want := range []string{"HEAD ", " TAIL?", "[…]"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("cut query lacks %q", want)
		}
	}
}

// TestOpenAIConfigErrors: an unusable configuration, the zero one included,
// fails at construction, not on every Select (where it only showed as a
// heuristic fallback).
func TestOpenAIConfigErrors(t *testing.T) {
	for _, cfg := range []OpenAIConfig{
		{},
		{Model: "m"},
		{BaseURL: "http://localhost"},
		{BaseURL: "http://bad host\x7f", Model: "m"},
		{BaseURL: "localhost:8080/v1", Model: "m"},
		{BaseURL: "ftp://example.com", Model: "m"},
		{BaseURL: "http:///v1", Model: "m"},
	} {
		sel, err := OpenAI(cfg)
		if !errors.Is(err, ErrConfig) || ErrorKindOf(err) != telemetry.ErrorConfig || sel != nil {
			t.Errorf("%+v: (%v, %v), want (nil, ErrConfig)", cfg, sel, err)
		}
	}
}

func TestOpenAITransportError(t *testing.T) {
	m, _ := fixture()
	srv := httptest.NewServer(http.NotFoundHandler())
	sel := testSelector(srv, 0)
	srv.Close() // nothing listens any more
	_, err := sel.Select(context.Background(), Request{Manifest: m})
	if !errors.Is(err, ErrTransport) || ErrorKindOf(err) != telemetry.ErrorTransport {
		t.Fatalf("err = %v, want ErrTransport", err)
	}
	if strings.Contains(err.Error(), testAPIKey) {
		t.Errorf("error leaks the API key: %v", err)
	}
}

// hangingServer holds every request without answering (after an optional
// partial body) until the client goes away or the test ends; each arrival
// is signalled on the returned channel.
func hangingServer(t *testing.T, partial bool) (*httptest.Server, <-chan struct{}) {
	t.Helper()
	arrived := make(chan struct{}, 4)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if partial {
			io.WriteString(w, `{"choices":[{"message":`)
			w.(http.Flusher).Flush()
		}
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first, so Close never waits on a handler
	return srv, arrived
}

// TestOpenAICancelledMidRequest cancels the caller's context once the server
// holds the request; the server never answers.
func TestOpenAICancelledMidRequest(t *testing.T) {
	m, _ := fixture()
	for _, partial := range []bool{false, true} {
		t.Run(fmt.Sprintf("partial body %v", partial), func(t *testing.T) {
			srv, arrived := hangingServer(t, partial)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { <-arrived; cancel() }()
			got := Settle(ctx, testSelector(srv, 0), Request{Manifest: m})
			checkOutcome(t, got, Outcome{Cancelled: true})

			// The adapter alone reports the cancellation, reachable with
			// errors.Is.
			ctx2, cancel2 := context.WithCancel(context.Background())
			defer cancel2()
			go func() { <-arrived; cancel2() }()
			_, err := testSelector(srv, 0).Select(ctx2, Request{Manifest: m})
			if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrTransport) {
				t.Errorf("err = %v, want ErrTransport and context.Canceled", err)
			}
		})
	}
}
