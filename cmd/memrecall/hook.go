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
// daemon it starts is this binary's `memrecall daemon`; the binary's path
// is looked up only when a daemon must be started.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := hook.DeclareFlags(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	return f.Run(stdin, stdout, self)
}

// self is this binary's path, or "" (then no daemon can be started; the
// hook still fails open).
func self() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}
