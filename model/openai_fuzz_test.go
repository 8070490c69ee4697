package model

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// FuzzParseChatResponse feeds arbitrary response bodies (outside input) to
// the parser: it must never panic, must fail only with ErrMalformed or
// ErrRefused, and whatever it accepts must survive a round trip through a
// well-formed completion. The seed corpus is in
// testdata/fuzz/FuzzParseChatResponse.
func FuzzParseChatResponse(f *testing.F) {
	f.Add([]byte(completion(`{"selected_memories":["project/a.md"]}`)))
	f.Add([]byte(completion("```json\n{\"selected_memories\":[]}\n```")))
	f.Add([]byte(`{"choices":[{"message":{"content":null,"refusal":"no"}}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		keys, err := ParseChatResponse(body)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrRefused) {
				t.Fatalf("unexpected error class: %v", err)
			}
			if keys != nil {
				t.Fatalf("keys %q alongside error %v", keys, err)
			}
			return
		}
		if keys == nil {
			t.Fatal("accepted a response without a selection list")
		}
		content, merr := json.Marshal(map[string][]string{"selected_memories": keys})
		if merr != nil {
			t.Fatal(merr)
		}
		again, err := ParseChatResponse([]byte(completion(string(content))))
		if err != nil || !slices.Equal(again, keys) {
			t.Fatalf("round trip: %q, %v; want %q", again, err, keys)
		}
	})
}

// FuzzParseSelection targets the message-content parser (fence stripping
// and the selection object) directly, where most of the model's freedom is.
func FuzzParseSelection(f *testing.F) {
	f.Add(`{"selected_memories":["project/a.md","user/b.md"]}`)
	f.Add("```json\n{\"selected_memories\":[]}\n```")
	f.Add("```\n{\"selected_memories\":[\"x\"]}```")
	f.Add(`{"selected_memories":null}`)
	f.Add(`{"selected_memories":[]} trailing`)
	f.Fuzz(func(t *testing.T, content string) {
		keys, err := parseSelection(content)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("unexpected error class: %v", err)
			}
			return
		}
		if keys == nil {
			t.Fatal("accepted content without a selection list")
		}
		if strings.HasPrefix(strings.TrimSpace(content), "```") {
			return // only one fence is stripped, by design
		}
		fenced := "```json\n" + content + "\n```"
		if again, err := parseSelection(fenced); err != nil || !slices.Equal(again, keys) {
			t.Fatalf("fenced: %q, %v; want %q", again, err, keys)
		}
	})
}
