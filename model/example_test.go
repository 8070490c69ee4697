package model_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
)

func exampleDocs() []*memory.Document {
	mtime := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	return []*memory.Document{
		{ID: "/home/alice/.qwen/projects/repo/memory/deploy.md", Scope: memory.ScopeProject, RelPath: "deploy.md",
			Type: memory.TypeReference, Title: "Deploy", Description: "How to deploy\nand roll back", Modified: mtime},
		{ID: "/home/alice/.qwen/memories/style.md", Scope: memory.ScopeUser, RelPath: "style.md",
			Type: memory.TypeFeedback, Title: "feedback", Description: "Prefers table tests", Modified: mtime},
	}
}

func ExampleBuildManifest() {
	m := model.BuildManifest(exampleDocs())
	fmt.Print(m.Text())
	id, ok := m.Lookup("user/style.md")
	fmt.Println(id, ok)
	// Output:
	// - [reference] project/deploy.md (2026-06-01T09:00:00Z): How to deploy and roll back
	// - [feedback] user/style.md (2026-06-01T09:00:00Z): Prefers table tests
	// /home/alice/.qwen/memories/style.md true
}

func ExampleSettle() {
	docs := exampleDocs()
	req := model.Request{Query: "how do I roll back?", Manifest: model.BuildManifest(docs)}

	// A valid answer is the model's choice.
	out := model.Settle(context.Background(), model.Scripted{Answer: []string{"project/deploy.md"}}, req)
	fmt.Println(out.Strategy, out.Docs)

	// An empty answer selects nothing.
	out = model.Settle(context.Background(), model.Scripted{Answer: []string{}}, req)
	fmt.Println(out.Strategy, out.Docs)

	// An answer outside the manifest falls back to the caller's lexical
	// ranking (heuristic, no documents of its own); the kind is for
	// telemetry, the error for debugging.
	out = model.Settle(context.Background(), model.Scripted{Answer: []string{"/etc/passwd"}}, req)
	fmt.Println(out.Strategy, out.Docs, out.ErrKind, errors.Is(out.Err, model.ErrUnknownDocument))

	// No selector configured: deterministic only.
	out = model.Settle(context.Background(), nil, req)
	fmt.Println(out.Strategy, out.Docs)
	// Output:
	// model [/home/alice/.qwen/projects/repo/memory/deploy.md]
	// none []
	// heuristic [] unknown_document true
	// heuristic []
}

func ExampleOpenAI() {
	// A stand-in for an OpenAI-compatible endpoint (vLLM, Ollama, DashScope…).
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant",`+
			`"content":"{\"selected_memories\":[\"user/style.md\"]}"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()

	sel, err := model.OpenAI(model.OpenAIConfig{
		BaseURL: srv.URL + "/v1",
		Model:   "qwen3-coder",
		APIKey:  "sk-…",
	})
	if err != nil { // a missing BaseURL or Model fails here, at wiring time
		fmt.Println(err)
		return
	}
	docs := exampleDocs()
	req := model.Request{Query: "write tests for the parser", Manifest: model.BuildManifest(docs)}
	out := model.Settle(context.Background(), sel, req)
	fmt.Println(out.Strategy, out.Docs)
	// Output:
	// model [/home/alice/.qwen/memories/style.md]
}
