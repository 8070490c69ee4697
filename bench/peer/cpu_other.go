//go:build !unix

package main

import "time"

// cpuNow is 0 where there is no getrusage: the CPU columns then read 0,
// and the wall columns stand alone.
func cpuNow() time.Duration { return 0 }
