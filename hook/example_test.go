package hook_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/hook"
)

// One Claude Code prompt through the hook: the daemon (here in process;
// `memrecall hook` starts `memrecall daemon` detached instead) reads the
// shipped example memory, and the hook prints the answer Claude Code
// puts after the prompt. A Stop event prints nothing.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "mrx")
	defer os.RemoveAll(dir)
	roots := daemon.RootsConfig{Project: "../examples/memory/project"}
	srv, err := daemon.Listen(daemon.Options{Dir: dir, Config: daemon.Config{Roots: map[string]daemon.RootsConfig{"claude": roots}}})
	if err != nil {
		panic(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx); close(done) }()
	defer func() { stop(); <-done }()

	for _, ev := range []string{
		`{"session_id":"ex","cwd":"/","hook_event_name":"UserPromptSubmit","prompt":"what is on the deploy checklist?"}`,
		`{"session_id":"ex","cwd":"/","hook_event_name":"Stop"}`,
	} {
		var out strings.Builder
		hook.Run(hook.Config{
			Agent: "claude", Stdin: strings.NewReader(ev), Stdout: &out, Dir: dir,
			Environ: []string{"HOME=/nonexistent"},
			Budget:  10 * time.Second, // the default is hook.Budget; this example may run on a loaded machine
		})
		fmt.Println(strings.HasPrefix(out.String(), `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"# Saved memories`), out.Len() == 0)
	}
	// Output:
	// true false
	// false true
}
