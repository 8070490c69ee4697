package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// post sends body to url and returns the status and the answer.
func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(data)
}

// sseData returns the data lines of an SSE stream, decoded as JSON
// objects, and the event names in order.
func sseData(t *testing.T, stream string) (names []string, data []map[string]any) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(stream))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			names = append(names, strings.TrimPrefix(line, "event: "))
		case strings.HasPrefix(line, "data: "):
			raw := strings.TrimPrefix(line, "data: ")
			if raw == "[DONE]" {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(raw), &m); err != nil {
				t.Fatalf("data line is not JSON: %q", raw)
			}
			data = append(data, m)
		}
	}
	return names, data
}

func kinds(reqs []Request) []Kind {
	out := make([]Kind, len(reqs))
	for i, r := range reqs {
		out[i] = r.Kind
	}
	return out
}

func TestAnthropicToolThenFinal(t *testing.T) {
	s, err := Anthropic(Script{Tool: &ToolCall{Name: "Bash", Input: map[string]any{"command": "ls"}}, Final: "bye"}, Bounds{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.URL + "/v1/messages?beta=true"

	_, out := post(t, url, `{"model":"m","stream":true,"tools":[{"name":"Read"},{"name":"Bash"}],
		"messages":[{"role":"user","content":"list"}]}`)
	names, data := sseData(t, out)
	wantNames := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("event names (-want +got):\n%s", diff)
	}
	if got := data[1]["content_block"].(map[string]any)["name"]; got != "Bash" {
		t.Errorf("tool block name %v, want Bash", got)
	}
	if got := data[2]["delta"].(map[string]any)["partial_json"]; got != `{"command":"ls"}` {
		t.Errorf("tool input %v", got)
	}
	if got := data[4]["delta"].(map[string]any)["stop_reason"]; got != "tool_use" {
		t.Errorf("stop reason %v, want tool_use", got)
	}

	_, out = post(t, url, `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[
		{"role":"user","content":"list"},
		{"role":"assistant","content":[{"type":"tool_use","id":"toolu_fake1","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_fake1","content":"a.txt"}]}]}`)
	_, data = sseData(t, out)
	if got := data[2]["delta"].(map[string]any)["text"]; got != "bye" {
		t.Errorf("final text %v, want bye", got)
	}

	// A side request without the tool gets text, not a call.
	_, out = post(t, url, `{"model":"m","stream":false,"messages":[{"role":"user","content":"title?"}]}`)
	var msg struct {
		Content []struct{ Type, Text string }
	}
	if err := json.Unmarshal([]byte(out), &msg); err != nil || len(msg.Content) != 1 || msg.Content[0].Text != "bye" {
		t.Errorf("non-streaming answer %q (%v)", out, err)
	}

	reqs := s.Requests()
	if diff := cmp.Diff([]Kind{KindToolCall, KindFinal, KindText}, kinds(reqs)); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if !reqs[0].Offers("Bash") || reqs[0].ToolResult || !reqs[1].ToolResult {
		t.Errorf("log: %+v", reqs[:2])
	}
}

func TestOpenAISelectorsAndLoop(t *testing.T) {
	sc := Script{
		Tool:   &ToolCall{Name: "run_shell_command", Input: map[string]any{"command": "ls"}},
		Select: SelectByName("b.md", "missing.md", "a.md"),
	}
	s, err := OpenAI(sc, Bounds{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.URL + "/v1/chat/completions"

	// Qwen Code's selector: its only tool is respond_in_schema.
	_, out := post(t, url, `{"model":"m","stream":false,"tools":[{"type":"function","function":{"name":"respond_in_schema"}}],
		"messages":[{"role":"user","content":"files:\n/h/mem/a.md: A\n/h/mem/b.md: B\n/h/mem/MEMORY.md"}]}`)
	var resp struct {
		Choices []struct {
			Message struct {
				Content   *string
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatal(err)
	}
	call := resp.Choices[0].Message.ToolCalls[0].Function
	if call.Name != "respond_in_schema" || call.Arguments != `{"selected_memories":["/h/mem/b.md","/h/mem/a.md"]}` {
		t.Errorf("qwen selector answer %+v", call)
	}

	// memrecall's selector: response_format memory_selection, manifest keys.
	_, out = post(t, url, `{"model":"m","stream":false,"response_format":{"type":"json_schema","json_schema":{"name":"memory_selection"}},
		"messages":[{"role":"user","content":"<manifest>\n- [project] project/a.md (2026-01-01T00:00:00Z): A\n- [user] user/b.md (2026-01-01T00:00:00Z): B\n</manifest>"}]}`)
	resp.Choices = nil
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatal(err)
	}
	if got := *resp.Choices[0].Message.Content; got != `{"selected_memories":["user/b.md","project/a.md"]}` {
		t.Errorf("memrecall selector answer %s", got)
	}

	// The main loop: a tool call, then the final text after the result.
	_, out = post(t, url, `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"run_shell_command"}}],
		"messages":[{"role":"user","content":"go"}]}`)
	_, data := sseData(t, out)
	if got := data[1]["choices"].([]any)[0].(map[string]any)["finish_reason"]; got != "tool_calls" {
		t.Errorf("finish %v, want tool_calls", got)
	}
	post(t, url, `{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"run_shell_command"}}],
		"messages":[{"role":"user","content":"go"},{"role":"tool","content":"a.txt"}]}`)

	if diff := cmp.Diff([]Kind{KindSelector, KindSelector, KindToolCall, KindFinal}, kinds(s.Requests())); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
}

func TestGeminiRouterToolFinal(t *testing.T) {
	s, err := Gemini(Script{Tool: &ToolCall{Name: "run_shell_command", Input: map[string]any{"command": "ls"}}, Final: "ok"}, Bounds{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, out := post(t, s.URL+"/v1beta/models/lite:generateContent",
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"properties":{"complexity_score":{}}}}}`)
	if !strings.Contains(out, `complexity_score`) {
		t.Errorf("router answer %s", out)
	}
	_, out = post(t, s.URL+"/v1beta/models/pro:streamGenerateContent?alt=sse",
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`)
	_, data := sseData(t, out)
	part := data[0]["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)
	if part["functionCall"].(map[string]any)["name"] != "run_shell_command" {
		t.Errorf("tool answer %s", out)
	}
	_, out = post(t, s.URL+"/v1beta/models/pro:streamGenerateContent?alt=sse",
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"a"}}}]}],
		"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`)
	if !strings.Contains(out, `"text":"ok"`) {
		t.Errorf("final answer %s", out)
	}
	if diff := cmp.Diff([]Kind{KindText, KindToolCall, KindFinal}, kinds(s.Requests())); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
}

func TestBounds(t *testing.T) {
	s, err := Anthropic(Script{}, Bounds{MaxRequests: 1, MaxBody: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	url := s.URL + "/v1/messages"
	if code, _ := post(t, url, `{"messages":[]}`); code != http.StatusOK {
		t.Errorf("first request: %d", code)
	}
	if code, _ := post(t, url, `{"messages":[]}`); code != http.StatusServiceUnavailable {
		t.Errorf("over the limit: %d, want 503", code)
	}
	if code, _ := post(t, url, strings.Repeat("x", 200)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("large body: %d, want 413", code)
	}
	if got := s.Overflow(); got != 1 {
		t.Errorf("overflow %d, want 1", got)
	}
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Errorf("listens on %s, want 127.0.0.1", s.URL)
	}
	s.Close() // twice is fine
}

func TestCandidateNames(t *testing.T) {
	for _, tc := range []struct {
		name, prompt string
		want         []string
	}{
		{"manifest keys win", "- [project] project/a.md (2026): x\nsee b.md", []string{"project/a.md"}},
		{"file names, index excluded", "/m/MEMORY.md\n/m/a.md: A\n/m/sub/b.md: B, again /m/a.md", []string{"/m/a.md", "/m/sub/b.md"}},
		{"non-ASCII names", "コード.md and 支付回调.md", []string{"コード.md", "支付回调.md"}},
		{"nothing", "no files here", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, candidateNames(tc.prompt)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestBadJSON: each fake answers a body that is not JSON with a 400 and
// logs it as KindOther "400".
func TestBadJSON(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start func(Script, Bounds) (*Server, error)
		path  string
	}{
		{"anthropic", Anthropic, "/v1/messages"},
		{"gemini", Gemini, "/v1beta/models/m:generateContent"},
		{"openai", OpenAI, "/v1/chat/completions"},
	} {
		s, err := tc.start(Script{}, Bounds{MaxRequests: 2})
		if err != nil {
			t.Fatal(err)
		}
		if code, _ := post(t, s.URL+tc.path, "{not json"); code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", tc.name, code)
		}
		got := s.Requests()
		s.Close()
		if len(got) != 1 || got[0].Kind != KindOther || got[0].Reply != "400" {
			t.Errorf("%s: log %+v, want one KindOther \"400\"", tc.name, got)
		}
	}
}
