//go:build unix

package cputime

import (
	"os"
	"syscall"
	"time"
)

// Now is this process's CPU time (user + system, every thread), or 0 if
// getrusage fails.
func Now() time.Duration {
	cpu, _ := Usage()
	return cpu
}

// Usage is this process's CPU time (as Now) and its minor page faults so
// far, from one getrusage call; both 0 if it fails.
func Usage() (cpu time.Duration, minorFaults int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), int64(ru.Minflt)
}

// childFaults is the minor page faults of an exited child process.
func childFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Minflt)
	}
	return 0
}
