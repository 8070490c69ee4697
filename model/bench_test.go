package model

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/memory"
)

// benchDocs is a full candidate set: 200 documents whose descriptions are
// long enough that packing has to skip some.
func benchDocs() []*memory.Document {
	docs := make([]*memory.Document, 200)
	for i := range docs {
		docs[i] = doc(memory.ScopeProject, fmt.Sprintf("topic/%03d-notes.md", i), memory.TypeProject,
			strings.Repeat(fmt.Sprintf("word%d ", i), 10+i%60))
	}
	return docs
}

func BenchmarkBuildManifest(b *testing.B) {
	docs := benchDocs()
	b.ReportAllocs()
	for b.Loop() {
		BuildManifest(docs)
	}
}

func BenchmarkParseChatResponse(b *testing.B) {
	body := []byte(completion(`{"selected_memories":["project/topic/001-notes.md","project/topic/002-notes.md","user/prefs.md"]}`))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseChatResponse(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeChatRequest(b *testing.B) {
	req := Request{Query: "how do we deploy the billing service?", Manifest: BuildManifest(benchDocs()), RecentTools: []string{"Bash", "Read"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeChatRequest("m", req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSettleScripted(b *testing.B) {
	m, _ := fixture()
	sel := Scripted{Answer: []string{"project/c.md", "project/a.md"}}
	req := Request{Manifest: m}
	b.ReportAllocs()
	for b.Loop() {
		Settle(context.Background(), sel, req)
	}
}
