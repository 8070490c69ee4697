//go:build linux

package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// Thread is the CPU time of the calling thread, or 0 if it cannot be
// read: a benchmark that locks its goroutine to its thread
// (runtime.LockOSThread) reads the CPU time of one pass of its own,
// without that of the collector's workers or of other goroutines. It is
// clock_gettime's thread clock, which counts to the nanosecond what the
// scheduler has run so far; getrusage's thread figure moves only at
// scheduler ticks, too coarse for a pass of a few milliseconds.
func Thread() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
