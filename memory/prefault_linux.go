//go:build linux

package memory

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is Linux's MADV_POPULATE_WRITE (5.14 and later).
const madvPopulateWrite = 23

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
