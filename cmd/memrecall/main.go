// Command memrecall runs the recall core on a real memory tree: it lists a
// tree (scan), runs a query through the whole lifecycle (query), prints the
// evaluation tables (eval) and exports the lifecycle diagram (graph).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage: memrecall <command> [flags]

commands:
  scan    list the documents and skip counts of a memory tree
  query   run one query through the recall lifecycle and show what a host sees
  eval    print the quality and delivery evaluation tables
  graph   print the recall lifecycle state machine as DOT or Mermaid
  hook    answer one agent hook event (stdin) through the recall daemon
  daemon  run the per-user recall daemon in the foreground
  status  show the daemon's sessions, memory corpora and latencies
  install    add memrecall's hooks to an agent's settings (uninstall removes them)

Run "memrecall <command> -h" for the flags of a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "scan":
		return runScan(rest, stdout, stderr)
	case "query":
		return runQuery(rest, stdout, stderr)
	case "eval":
		return runEval(rest, stdout, stderr)
	case "graph":
		return runGraph(rest, stdout, stderr)
	case "hook":
		return runHook(rest, os.Stdin, stdout, stderr)
	case "daemon":
		return runDaemon(rest, stdout, stderr)
	case "status":
		return runStatus(rest, stdout, stderr)
	case "install":
		return runInstall(rest, stdout, stderr, false)
	case "uninstall":
		return runInstall(rest, stdout, stderr, true)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "memrecall: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// parseFlags parses a subcommand's flags, which take no positional
// argument. When the command should stop it returns the exit code and
// false: 0 after -h, 2 after a bad flag or a stray argument.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	setHelp(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}
