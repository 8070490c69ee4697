package main

import (
	"fmt"
	"io"
)

// runScan is being written in its own issue; until it lands it says so.
func runScan(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "memrecall scan: not built yet")
	return 1
}
