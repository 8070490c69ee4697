// Package cputime reads the process's CPU time, for benchmarks on a shared
// machine: wall-clock ns/op includes time spent waiting for a core, CPU
// time is the work itself.
package cputime
