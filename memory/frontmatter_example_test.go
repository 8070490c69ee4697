package memory_test

import (
	"fmt"

	"github.com/memrecall/memrecall/memory"
)

// Parse reads a topic file as Claude Code writes it: the type nested under
// metadata and a folded description.
func ExampleParse_claudeCode() {
	p, err := memory.Parse([]byte(`---
name: release-freeze
description: >-
  Merge freeze for the mobile release cut,
  starting 2026-03-05
metadata:
  type: project
---
No merges to main until the build is approved. See [[api-versioning]].
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Type, "|", p.Title, "|", p.Description)
	fmt.Println(p.Body)
	// Output:
	// project | release-freeze | Merge freeze for the mobile release cut, starting 2026-03-05
	// No merges to main until the build is approved. See [[api-versioning]].
}
