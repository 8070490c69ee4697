//go:build unix

package main

import (
	"os"
	"syscall"
)

// selfFaults is this process's count of minor page faults so far: each
// first touch of a page costs 17–19 µs of CPU on the project's VM
// (BenchmarkPageFault), so the table counts them per cell.
func selfFaults() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Minflt)
}

// childFaults is the minor page faults of an exited child process.
func childFaults(ps *os.ProcessState) float64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return float64(ru.Minflt)
	}
	return 0
}
