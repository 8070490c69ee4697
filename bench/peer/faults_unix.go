//go:build unix

package main

import (
	"os"
	"syscall"
)

// childFaults is the minor page faults of an exited child process: each
// first touch of a page costs 17–19 µs of CPU on the project's VM
// (BenchmarkPageFault), so the table counts them per cell. This process's
// own come from cputime.Usage.
func childFaults(ps *os.ProcessState) float64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return float64(ru.Minflt)
	}
	return 0
}
