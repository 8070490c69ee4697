//go:build unix

package main

import (
	"syscall"
	"testing"
)

// BenchmarkPageFault touches fresh anonymous pages, one per operation (ns/op
// is wall time; cpu-µs/fault the process's user + system time): the
// price of a page fault on this machine, which a fresh process pays for
// every page of its binary, runtime and heap it touches first. It is the
// unit in which docs/performance.md explains where a fresh `memrecall
// query` spends its time beyond its instructions.
//
//	go test -run '^$' -bench PageFault -benchtime 20000x ./cmd/memrecall
func BenchmarkPageFault(b *testing.B) {
	const page = 4096
	mem, err := syscall.Mmap(-1, 0, b.N*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		b.Fatal(err)
	}
	defer syscall.Munmap(mem)
	var before, after syscall.Rusage
	b.ResetTimer()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	for i := range b.N { // b.N, not b.Loop: the mapping is sized before the loop
		mem[i*page] = 1
	}
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	b.StopTimer()
	cpu := after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano()
	b.ReportMetric(float64(cpu)/1e3/float64(b.N), "cpu-µs/fault")
}
