package memory

import (
	"strings"
	"unsafe"
)

// uninitBytes returns n bytes of fresh heap memory that the allocator has
// not cleared: the caller overwrites every byte (a file read whole into
// it, io.ReadFull checked) before it looks at any. make would clear them
// first, and for a buffer of megabytes that costs more than the read: the
// clearing touches every page (a fault each on memory the runtime had
// given back to the kernel) and writes what the read writes again
// (docs/decisions/0804-snapshot-load.md). strings.Builder.Grow is the
// standard library's way to such memory; the builder is dropped here and
// the buffer is reachable only through the returned slice, so nothing
// sees it as an immutable string. The memory holds no pointers; the
// collector frees it as any other.
func uninitBytes(n int) []byte {
	if n <= 0 {
		return []byte{}
	}
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0) // the builder's data pointer is the buffer's start
	return unsafe.Slice(unsafe.StringData(sb.String()), n)
}
