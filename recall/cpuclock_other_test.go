//go:build !unix

package recall

import "time"

// cpuClock is 0 where there is no getrusage; the cpu-ns/op metrics then
// read 0.
func cpuClock() time.Duration { return 0 }
