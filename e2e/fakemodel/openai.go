package fakemodel

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// openaiRequest is the part of a chat-completions request the fake reads.
type openaiRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	ResponseFormat *struct {
		JSONSchema *struct {
			Name string `json:"name"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

func (q *openaiRequest) hasToolResult() bool {
	for _, m := range q.Messages {
		if m.Role == "tool" {
			return true
		}
	}
	return false
}

func (q *openaiRequest) offers(tool string) bool {
	for _, t := range q.Tools {
		if t.Function.Name == tool {
			return true
		}
	}
	return false
}

// selector reports which recall selector protocol the request is:
// "respond_in_schema" (Qwen Code: its only tool), "memory_selection"
// (memrecall: the response_format schema), or "".
func (q *openaiRequest) selector() string {
	if len(q.Tools) == 1 && q.Tools[0].Function.Name == "respond_in_schema" {
		return "respond_in_schema"
	}
	if q.ResponseFormat != nil && q.ResponseFormat.JSONSchema != nil &&
		q.ResponseFormat.JSONSchema.Name == "memory_selection" {
		return "memory_selection"
	}
	return ""
}

// text is the concatenated text of every message, for finding candidates.
func (q *openaiRequest) text() string {
	var b strings.Builder
	for _, m := range q.Messages {
		b.WriteString(contentText(m.Content))
		b.WriteByte('\n')
	}
	return b.String()
}

// contentText returns a message content's text: a JSON string, or the
// text fields of an array of parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
			b.WriteByte('\n')
		}
		return b.String()
	}
	return ""
}

// OpenAI starts a fake chat-completions endpoint (POST …/chat/completions,
// streaming or not). It serves Qwen Code's main loop and its
// respond_in_schema selector, and memrecall's own memory_selection
// selector; selector answers wait Script.SelectDelay.
func OpenAI(sc Script, b Bounds) (*Server, error) {
	return start(b, func(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte) answer {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return answer{kind: KindOther, reply: "404"}
		}
		var q openaiRequest
		if refused, ok := decode(w, body, &q); !ok {
			return refused
		}
		a := answer{kind: KindText, reply: sc.final(), toolResult: q.hasToolResult()}
		for _, t := range q.Tools {
			a.tools = append(a.tools, t.Function.Name)
		}
		if proto := q.selector(); proto != "" {
			picked := sc.choose(candidateNames(q.text()))
			args, _ := json.Marshal(map[string]any{"selected_memories": picked})
			a.kind, a.reply = KindSelector, string(args)
			if !sleep(ctx, sc.SelectDelay) {
				a.reply = "cancelled"
				return a
			}
			if proto == "respond_in_schema" {
				writeOpenAI(w, q.Model, q.Stream, "", &ToolCall{Name: "respond_in_schema"}, args)
			} else {
				writeOpenAI(w, q.Model, q.Stream, string(args), nil, nil)
			}
			return a
		}
		switch {
		case a.toolResult:
			a.kind = KindFinal
		case sc.Tool != nil && q.offers(sc.Tool.Name):
			a.kind, a.reply = KindToolCall, "tool_call "+sc.Tool.Name
			if !sc.toolCall(ctx) {
				a.reply = "cancelled"
				return a
			}
			args, _ := json.Marshal(sc.Tool.Input)
			writeOpenAI(w, q.Model, q.Stream, "", sc.Tool, args)
			return a
		}
		writeOpenAI(w, q.Model, q.Stream, sc.final(), nil, nil)
		return a
	})
}

// writeOpenAI writes one assistant answer: a tool call with args, or text.
func writeOpenAI(w http.ResponseWriter, model string, stream bool, text string, tool *ToolCall, args []byte) {
	if model == "" {
		model = "fake-model"
	}
	finish := "stop"
	var calls []any
	if tool != nil {
		finish = "tool_calls"
		calls = []any{map[string]any{"index": 0, "id": "call_fake1", "type": "function",
			"function": map[string]any{"name": tool.Name, "arguments": string(args)}}}
	}
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	if !stream {
		msg := map[string]any{"role": "assistant", "content": text}
		if tool != nil {
			msg["content"] = nil
			msg["tool_calls"] = calls
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":   usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	delta := map[string]any{"role": "assistant", "content": text}
	if tool != nil {
		delta = map[string]any{"role": "assistant", "tool_calls": calls}
	}
	chunks := []map[string]any{
		{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}},
		{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}},
			"usage":   usage},
	}
	fl, _ := w.(http.Flusher)
	for _, c := range chunks {
		data, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", data)
		if fl != nil {
			fl.Flush()
		}
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}
