package eval_test

import (
	"context"
	"fmt"

	"github.com/memrecall/memrecall/eval"
)

// A corpus is plain JSON; Run writes it as a memory tree, scans it and
// ranks every case with the shipped and the legacy scorer.
func Example() {
	c, err := eval.Parse([]byte(`{
	  "name": "two-notes",
	  "documents": [
	    {"id": "deploy", "scope": "project", "type": "reference", "name": "Deploy checklist",
	     "description": "canary first", "body": "Roll back with make rollback.", "modified": "2026-06-01T09:00:00Z"},
	    {"id": "prefs", "scope": "user", "type": "user", "name": "About me",
	     "description": "terse answers", "body": "Uses neovim.", "modified": "2026-06-02T09:00:00Z"}],
	  "cases": [
	    {"id": "c1", "slice": "english", "query": "deploy rollback", "relevant": ["deploy"], "top": "deploy"},
	    {"id": "c2", "slice": "chinese", "query": "部署", "relevant": ["deploy"]},
	    {"id": "c3", "slice": "no-result", "query": "helm", "relevant": []}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := eval.Run(context.Background(), c, eval.Options{SkipDelivery: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Quality {
		if r.Slice == eval.SliceOverall {
			fmt.Printf("%s: Recall@5 %.2f, no-result recall %.2f\n", r.Scorer, *r.RecallAt5, *r.NoResultRecall)
		}
	}
	fmt.Println("memrecall misses:", rep.Misses[eval.ScorerMemrecall])
	// Output:
	// memrecall: Recall@5 0.50, no-result recall 1.00
	// legacy: Recall@5 0.50, no-result recall 1.00
	// memrecall misses: [c2]
}

// A malformed corpus fails with one line that names the problem.
func ExampleParse() {
	_, err := eval.Parse([]byte(`{"name": "x",
	  "documents": [{"id": "a", "scope": "user", "type": "user", "modified": "2026-06-01T09:00:00Z"}],
	  "cases": [{"id": "c1", "slice": "english", "query": "q", "relevant": ["b"]}]}`))
	fmt.Println(err)
	// Output:
	// invalid corpus: case "c1": relevant "b": unknown document
}
