//go:build !unix

package cputime

import (
	"os"
	"time"
)

// Now is 0 where there is no getrusage: CPU figures then read 0.
func Now() time.Duration { return 0 }

// Usage is 0 CPU time and 0 faults where there is no getrusage.
func Usage() (cpu time.Duration, minorFaults int64) { return 0, 0 }

// childFaults is not counted where there is no getrusage.
func childFaults(*os.ProcessState) int64 { return 0 }
