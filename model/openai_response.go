package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// chatResponse is the subset of a chat-completions response the adapter
// reads.
type chatResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

// ParseChatResponse extracts the selected keys from a chat-completions
// response body: choices[0].message.content must hold the JSON object
// {"selected_memories": [strings]} and nothing after it. A Markdown code
// fence around the object (```json … ```) is tolerated, because servers
// without schema support (older vLLM and Ollama builds) often add one and
// the content is otherwise exact. Anything else fails with ErrMalformed; a
// refusal fails with ErrRefused. The answer is not validated against a
// manifest here (see Validate). Errors never quote the body.
func ParseChatResponse(body []byte) ([]string, error) {
	var resp chatResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("%w: response is not a chat completion", ErrMalformed)
	}
	if len(resp.Choices) == 0 {
		return nil, fmt.Errorf("%w: no choices", ErrMalformed)
	}
	msg := resp.Choices[0].Message
	if msg.Refusal != nil && *msg.Refusal != "" {
		return nil, ErrRefused
	}
	if msg.Content == nil {
		return nil, fmt.Errorf("%w: no message content", ErrMalformed)
	}
	keys, err := parseSelection(*msg.Content)
	if err != nil {
		if resp.Choices[0].FinishReason == "length" {
			return nil, fmt.Errorf("%w (the answer was cut at the token limit)", err)
		}
		return nil, err
	}
	return keys, nil
}

// parseSelection parses the message content.
func parseSelection(content string) ([]string, error) {
	content = stripFence(strings.TrimSpace(content))
	dec := json.NewDecoder(strings.NewReader(content))
	var sel struct {
		SelectedMemories *[]string `json:"selected_memories"`
	}
	if err := dec.Decode(&sel); err != nil {
		return nil, fmt.Errorf("%w: content is not the selection object", ErrMalformed)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: trailing data after the selection object", ErrMalformed)
	}
	if sel.SelectedMemories == nil {
		return nil, fmt.Errorf("%w: selected_memories missing or null", ErrMalformed)
	}
	return *sel.SelectedMemories, nil
}

// stripFence removes one surrounding Markdown code fence, with or without a
// language tag. Content without a fence is returned unchanged.
func stripFence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	inner := s[3 : len(s)-3]
	nl := strings.IndexByte(inner, '\n')
	if nl < 0 {
		return s
	}
	if tag := strings.TrimSpace(inner[:nl]); tag != "" && !strings.EqualFold(tag, "json") {
		return s
	}
	return string(bytes.TrimSpace([]byte(inner[nl+1:])))
}
