package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/memrecall/memrecall/fsm"
)

// runGraph prints the recall lifecycle's transition table, the same one
// fsm.Step is tested against, as Graphviz DOT or as Mermaid.
func runGraph(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memrecall graph", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "dot", "output format: dot or mermaid")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: memrecall graph [--format dot|mermaid]")
		fmt.Fprintln(stderr, "\nPrints the recall lifecycle state machine.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	switch *format {
	case "dot":
		fmt.Fprint(stdout, fsm.DOT())
	case "mermaid":
		fmt.Fprint(stdout, fsm.Mermaid())
	default:
		fmt.Fprintf(stderr, "memrecall graph: unknown format %q (want dot or mermaid)\n", *format)
		return 2
	}
	return 0
}
