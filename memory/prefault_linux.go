//go:build linux

package memory

import (
	"syscall"
	"unsafe"
)

// Linux's madvise advice values used here.
const (
	madvHugepage      = 14 // MADV_HUGEPAGE (2.6.38 and later)
	madvPopulateWrite = 23 // MADV_POPULATE_WRITE (5.14 and later)
)

// hugePage is the transparent huge page size of x86-64 and arm64 (4 KiB
// base pages), the unit newReadBuffer aligns a large buffer to.
const hugePage = 2 << 20

// hugeMin is the smallest buffer newReadBuffer backs with huge pages: a
// smaller one would keep up to a whole huge page resident for less than
// half its size.
const hugeMin = 1 << 20

// newReadBuffer returns a buffer of n bytes for a file about to be read
// into it whole. Its content is undefined until the read overwrites it
// (uninitBytes: clearing it first would touch every page for nothing), and
// its pages are already mapped, so the read does not take a page fault
// per 4 KiB page as it fills it (each cost 17–19 µs of CPU on the
// shadow-paged VM of decision 0801, and about 4.3 µs on the tenth round's;
// BenchmarkPageFault in cmd/memrecall measures the machine at hand). A
// buffer of hugeMin or more starts on a huge-page boundary of an
// allocation rounded up to whole huge pages, and that range is advised
// MADV_HUGEPAGE before it is populated: where
// transparent huge pages are in "madvise" mode (the usual default), 2 MiB
// are then mapped per fault instead of 4 KiB
// (docs/decisions/0802-snapshot-read-buffer.md).
//
// The allocation is then n rounded up to whole huge pages, plus one huge
// page of slack to align in: up to 4 MiB more heap than n (2 MiB − 1 of
// rounding and 2 MiB of slack) while the buffer lives. Only the aligned
// range is populated; the slack before and after it is never written
// here, so on memory fresh from the kernel it stays unmapped, and what is
// resident beyond n is the rounding of the last huge page, under 2 MiB.
// Any advice the kernel refuses only costs speed. The buffer is ordinary
// Go heap memory, freed by the collector like any other.
func newReadBuffer(n int) []byte {
	if n < hugeMin {
		b := uninitBytes(n)
		prefault(b)
		return b
	}
	size := (n + hugePage - 1) &^ (hugePage - 1)
	raw := uninitBytes(size + hugePage)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	off := int((hugePage - p%hugePage) % hugePage)
	b := raw[off : off+size]
	start := p + uintptr(off)
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, uintptr(size), madvHugepage)
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, uintptr(size), madvPopulateWrite)
	return b[:n:n]
}

// prefault asks the kernel to map every whole page of b in one call, so
// that a read into a freshly allocated b does not take one page fault per
// page as it goes along. It never changes b's content (pages already
// mapped stay as they are). A kernel without MADV_POPULATE_WRITE refuses
// the call, and then nothing happens: this is only about speed
// (docs/decisions/0801-start-up-cost.md).
func prefault(b []byte) {
	const page = 4096
	if len(b) < 2*page {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := (p + page - 1) &^ (page - 1)
	end := (p + uintptr(len(b))) &^ (page - 1)
	if end <= start {
		return
	}
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvPopulateWrite)
}
