package fakemodel

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// anthropicRequest is the part of a Messages API request the fake reads.
type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// hasToolResult reports whether any user message carries a tool_result
// block.
func (q *anthropicRequest) hasToolResult() bool {
	for _, m := range q.Messages {
		var blocks []struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string content
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				return true
			}
		}
	}
	return false
}

func (q *anthropicRequest) offers(tool string) bool {
	for _, t := range q.Tools {
		if t.Name == tool {
			return true
		}
	}
	return false
}

// Anthropic starts a fake Messages API (POST /v1/messages, streaming or
// not) as Claude Code speaks it.
func Anthropic(sc Script, b Bounds) (*Server, error) {
	return start(b, func(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte) answer {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages") {
			http.NotFound(w, r)
			return answer{kind: KindOther, reply: "404"}
		}
		var q anthropicRequest
		if refused, ok := decode(w, body, &q); !ok {
			return refused
		}
		a := answer{kind: KindText, reply: sc.final(), toolResult: q.hasToolResult()}
		for _, t := range q.Tools {
			a.tools = append(a.tools, t.Name)
		}
		var tool *ToolCall
		switch {
		case a.toolResult:
			a.kind = KindFinal
		case sc.Tool != nil && q.offers(sc.Tool.Name):
			a.kind, a.reply, tool = KindToolCall, "tool_use "+sc.Tool.Name, sc.Tool
			if !sc.toolCall(ctx) {
				a.reply = "cancelled"
				return a
			}
		}
		writeAnthropic(w, q.Model, q.Stream, sc.final(), tool)
		return a
	})
}

// writeAnthropic writes one assistant message: a tool_use block or a text
// block, as SSE events when stream is set, else as one JSON message.
func writeAnthropic(w http.ResponseWriter, model string, stream bool, text string, tool *ToolCall) {
	if model == "" {
		model = "fake-model"
	}
	stop := "end_turn"
	var block map[string]any
	var delta map[string]any
	if tool != nil {
		stop = "tool_use"
		input, _ := json.Marshal(tool.Input)
		block = map[string]any{"type": "tool_use", "id": "toolu_fake1", "name": tool.Name, "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": string(input)}
	} else {
		block = map[string]any{"type": "text", "text": ""}
		delta = map[string]any{"type": "text_delta", "text": text}
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !stream {
		content := map[string]any{"type": "text", "text": text}
		if tool != nil {
			content = map[string]any{"type": "tool_use", "id": "toolu_fake1", "name": tool.Name, "input": tool.Input}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
			"content": []any{content}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	events := []struct {
		name string
		data map[string]any
	}{
		{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage,
		}}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": 5}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	}
	fl, _ := w.(http.Flusher)
	for _, e := range events {
		data, _ := json.Marshal(e.data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, data)
		if fl != nil {
			fl.Flush()
		}
	}
}
