package main

import (
	"flag"
	"io"
	"os"

	"github.com/memrecall/memrecall/hook"
)

// runHook is `memrecall hook --agent X`: it always returns 0 and writes
// nothing but the agent's answer, so an agent never sees an error from
// memrecall (a hook fails open). Flag errors are the one exception: they
// are the installer's mistake, not a runtime failure, and exit 2. The
// daemon it starts is this binary's `memrecall daemon`.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agentName := fs.String("agent", "", "the agent that runs the hook: claude, gemini or qwen")
	noStart := fs.Bool("no-start", false, "do not start a daemon when none is running")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	exe, err := os.Executable()
	if err != nil {
		exe = "" // cannot start a daemon; still fail open
	}
	return hook.Event(*agentName, stdin, stdout, exe, !*noStart)
}
