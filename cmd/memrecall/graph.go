package main

import (
	"fmt"
	"io"
)

// runGraph is being written in its own issue; until it lands it says so.
func runGraph(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "memrecall graph: not built yet")
	return 1
}
