package fakemodel

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// geminiRequest is the part of a generateContent request the fake reads.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             string          `json:"text"`
			FunctionResponse json.RawMessage `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

func (q *geminiRequest) hasToolResult() bool {
	for _, c := range q.Contents {
		for _, p := range c.Parts {
			if len(p.FunctionResponse) > 0 {
				return true
			}
		}
	}
	return false
}

func (q *geminiRequest) offers(tool string) bool {
	for _, t := range q.Tools {
		for _, f := range t.FunctionDeclarations {
			if f.Name == tool {
				return true
			}
		}
	}
	return false
}

// Gemini starts a fake Gemini API: POST /<version>/models/<model>:
// generateContent, :streamGenerateContent (SSE with alt=sse, else a JSON
// array) and :countTokens, as Gemini CLI speaks it through
// GOOGLE_GEMINI_BASE_URL. A request that asks for JSON output (the CLI's
// routing and next-speaker checks) gets JSONReply's answer.
func Gemini(sc Script, b Bounds) (*Server, error) {
	return start(b, func(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte) answer {
		i := strings.LastIndexByte(r.URL.Path, ':')
		if r.Method != http.MethodPost || !strings.Contains(r.URL.Path, "/models/") || i < 0 {
			http.NotFound(w, r)
			return answer{kind: KindOther, reply: "404"}
		}
		method := r.URL.Path[i+1:]
		var q geminiRequest
		if refused, ok := decode(w, body, &q); !ok {
			return refused
		}
		a := answer{kind: KindText, reply: sc.final(), toolResult: q.hasToolResult()}
		for _, t := range q.Tools {
			for _, f := range t.FunctionDeclarations {
				a.tools = append(a.tools, f.Name)
			}
		}
		switch method {
		case "countTokens":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"totalTokens": 10}`)
			a.kind, a.reply = KindOther, "countTokens"
			return a
		case "generateContent", "streamGenerateContent":
		default:
			http.NotFound(w, r)
			return answer{kind: KindOther, reply: "404"}
		}
		stream := method == "streamGenerateContent"
		sse := r.URL.Query().Get("alt") == "sse"
		if q.GenerationConfig.ResponseMimeType == "application/json" {
			a.reply = JSONReply(string(body))
			writeGemini(w, stream, sse, a.reply, nil)
			return a
		}
		switch {
		case a.toolResult:
			a.kind = KindFinal
		case sc.Tool != nil && q.offers(sc.Tool.Name):
			a.kind, a.reply = KindToolCall, "functionCall "+sc.Tool.Name
			if !sc.toolCall(ctx) {
				a.reply = "cancelled"
				return a
			}
			writeGemini(w, stream, sse, "", sc.Tool)
			return a
		}
		writeGemini(w, stream, sse, sc.final(), nil)
		return a
	})
}

// JSONReply answers a Gemini request that asks for JSON output. Gemini CLI
// asks for JSON to route a prompt to a model (a complexity score) and to
// decide who speaks next; each gets the answer that ends the turn without
// extra work: a simple prompt, the user speaks next. Anything else gets an
// empty object.
func JSONReply(body string) string {
	switch {
	case strings.Contains(body, "next_speaker"):
		return `{"reasoning": "The model answered; the user speaks next.", "next_speaker": "user"}`
	case strings.Contains(body, "complexity_score"):
		return `{"complexity_reasoning": "A simple request.", "complexity_score": 10}`
	case strings.Contains(body, "model_choice"):
		return `{"reasoning": "A simple request.", "model_choice": "flash"}`
	}
	return `{}`
}

// writeGemini writes one candidate: a functionCall part or a text part.
func writeGemini(w http.ResponseWriter, stream, sse bool, text string, tool *ToolCall) {
	part := map[string]any{"text": text}
	if tool != nil {
		args := tool.Input
		if args == nil {
			args = map[string]any{}
		}
		part = map[string]any{"functionCall": map[string]any{"name": tool.Name, "args": args}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "fake-model",
	}
	data, _ := json.Marshal(resp)
	switch {
	case stream && sse:
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", data)
	case stream:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "[%s]", data)
	default:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(data)
	}
}
