package main

import (
	"fmt"
	"io"
)

// runEval is being written in its own issue; until it lands it says so.
func runEval(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "memrecall eval: not built yet")
	return 1
}
