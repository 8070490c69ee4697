//go:build unix

package recall

import (
	"syscall"
	"time"
)

// cpuClock reads the process's CPU time (user + system). The benchmark
// machine is shared, so wall-clock ns/op includes time spent waiting for a
// core; cpu-ns/op is the work itself.
func cpuClock() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
