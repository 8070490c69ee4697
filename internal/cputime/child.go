package cputime

import (
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Proc is what one child process cost, from start to exit: its wall
// time, its CPU time (user + system, every thread, from the kernel's
// accounting of the child) and its minor page faults (0 where there is
// no getrusage).
type Proc struct {
	Wall, CPU   time.Duration
	MinorFaults int64
}

// Run runs cmd to its exit and returns what it cost. Its standard output
// is discarded unless cmd sets one; its standard error, unless cmd sets
// one, is captured and quoted in the error of a failed run. Run is the
// one way bench/peer and cmd/memrecall's process benchmarks time a
// process, so that their figures are taken alike.
func Run(cmd *exec.Cmd) (Proc, error) {
	if cmd.Stdout == nil {
		cmd.Stdout = io.Discard
	}
	var stderr strings.Builder
	if cmd.Stderr == nil {
		cmd.Stderr = &stderr
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return Proc{}, fmt.Errorf("%s: %w: %s", cmd.Path, err, stderr.String())
	}
	ps := cmd.ProcessState
	return Proc{Wall: wall, CPU: ps.UserTime() + ps.SystemTime(), MinorFaults: childFaults(ps)}, nil
}
