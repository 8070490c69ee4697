package score_test

import (
	"fmt"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/score"
)

func Example() {
	day := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	docs := []*memory.Document{
		{RelPath: "deploy.md", Type: memory.TypeReference, Title: "Deploy checklist",
			Body: "Run migrations before deploying.", Modified: day},
		{RelPath: "editor.md", Type: memory.TypeUser, Title: "Editor",
			Description: "Prefers vim keybindings", Modified: day},
		{RelPath: "github.md", Type: memory.TypeReference, Title: "GitHub",
			Body: "Tool usage: call create_issue with title and body.", Modified: day},
		{RelPath: "サーバー.md", Type: memory.TypeProject, Title: "ｻｰﾊﾞｰ移行",
			Body: "deploy freeze until Friday", Modified: day.Add(time.Hour)},
	}
	ix := score.NewIndex()
	q := score.NewQuery("how do I deploy to the サーバー? create_issue", []string{"mcp__github__create_issue"})
	kept, ranked := ix.Rank(q, docs)
	fmt.Println("tokens:", q.Tokens())
	fmt.Println("kept:", len(kept), "of", len(docs))
	for _, m := range ranked {
		fmt.Println(m.Score, m.Doc.RelPath)
	}
	// Output:
	// tokens: [deploy サー ーバ バー create issue create_issue]
	// kept: 3 of 4
	// 55542 サーバー.md
	// 18408 deploy.md
}
