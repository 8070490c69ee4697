// Command memrecall-hook is `memrecall hook` in a binary of its own, for
// agents to run on every hook event: it links only the standard library
// and the hook client (about a third of memrecall's size and a quarter of
// its initialised packages; docs/hooks.md gives the figures and the
// commands that measure them), so a hook costs little more than the spawn
// of an empty Go program. It starts the daemon from the `memrecall` binary
// next to it.
//
//	memrecall-hook --agent claude|gemini|qwen [--no-start] < event.json
//
// `memrecall install` writes it into the agent's settings when it sits
// next to the memrecall binary. See docs/hooks.md.
package main

import (
	"os"
	"path/filepath"

	"github.com/memrecall/memrecall/hook"
)

func main() {
	os.Exit(hook.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, daemonBinary))
}

// daemonBinary is the memrecall binary next to this one, or "" (then no
// daemon is started and the hook only talks to a running one). The hook
// calls it only when it has to start a daemon, not on every event.
func daemonBinary() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	d := filepath.Join(filepath.Dir(exe), "memrecall")
	if fi, err := os.Stat(d); err != nil || fi.IsDir() {
		return ""
	}
	return d
}
