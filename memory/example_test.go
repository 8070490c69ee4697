package memory_test

import (
	"context"
	"fmt"

	"github.com/memrecall/memrecall/memory"
)

// Scanning the example tree that ships with the repository.
func ExampleCatalog() {
	cat := memory.NewCatalog(memory.Roots{
		Project: "../examples/memory/project",
		User:    "../examples/memory/user",
	})
	cat.Warm() // a host does this when a session starts

	res, err := cat.Scan(context.Background()) // joins the warm-up
	if err != nil {
		fmt.Println(err)
		return
	}
	perScope := map[memory.Scope]int{}
	for _, d := range res.Docs {
		perScope[d.Scope]++
	}
	fmt.Println("project:", perScope[memory.ScopeProject], "user:", perScope[memory.ScopeUser])
	fmt.Println("skipped:", res.Skipped)

	again, _ := cat.Scan(context.Background())
	fmt.Println("re-read on the second scan:", again.Stats.Read <= again.Stats.Listed)
	// Output:
	// project: 9 user: 7
	// skipped: none
	// re-read on the second scan: true
}

func ExampleParse() {
	p, err := memory.Parse([]byte("---\r\nname: 'Release freeze'\r\ntype: project\r\n---\r\nNo merges to main this week.\r\n"))
	fmt.Printf("%v %q %q %v\n", p.Type, p.Title, p.Body, err)
	// Output: project "Release freeze" "No merges to main this week." <nil>
}
