package memory

import (
	"testing"
	"unsafe"
)

// TestDocumentSize holds Document to the 120 bytes decision 0615 counts a
// cold scan's memory by (its one-byte fields last, sharing a word): a
// field added between two strings costs every scanned topic at least 8 more bytes
// unnoticed. On 32-bit platforms the size differs and is not checked.
func TestDocumentSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("64-bit layout")
	}
	if got := unsafe.Sizeof(Document{}); got != 120 {
		t.Errorf("Document is %d bytes, decision 0615 and its comment say 120: keep Scope, Type and BodyTruncated together at the end, or update both", got)
	}
}
