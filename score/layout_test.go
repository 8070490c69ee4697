package score

import (
	"testing"
	"unsafe"
)

// TestSlotSize holds the index's slot to 16 bytes: decision 0833 put the
// posting count in the padding after gen, so a slot holds the count at no
// cost; a field that breaks that costs every indexed document 8 bytes.
// On 32-bit platforms the size differs and is not checked.
func TestSlotSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("64-bit layout")
	}
	if got := unsafe.Sizeof(slot{}); got != 16 {
		t.Errorf("slot is %d bytes, decision 0833 says 16", got)
	}
}
