package main

import (
	"fmt"
	"io"
)

// runQuery is being written in its own issue; until it lands it says so.
func runQuery(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "memrecall query: not built yet")
	return 1
}
