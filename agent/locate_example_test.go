package agent_test

import (
	"fmt"

	"github.com/memrecall/memrecall/agent"
)

// Locate with an injected environment: Qwen Code's memory moved by
// QWEN_HOME, for a directory outside any repository.
func ExampleLocate() {
	env := agent.Env{
		Home: "/home/ana",
		Getenv: func(k string) string {
			if k == "QWEN_HOME" {
				return "/srv/qwen"
			}
			return ""
		},
	}
	roots, err := agent.Locate(agent.Qwen, "/nonexistent/scratch", env)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(roots.Project)
	fmt.Println(roots.User)
	for _, why := range roots.Why {
		fmt.Println("-", why)
	}
	// Output:
	// /srv/qwen/projects/-nonexistent-scratch/memory
	// /srv/qwen/memories
	// - base: QWEN_HOME
	// - user: <base>/memories
	// - project: <base>/projects/<sanitized working directory (no .git above it)>/memory
}
