package memory

import "unsafe"

// textChunk is the size of one block of a scan's document text: 64 KiB,
// sixteen pages mapped by one prefault call. Smaller blocks would save
// fewer faults; larger ones would keep more dead text alive (below).
const textChunk = 64 << 10

// textsMinFiles is the least number of files read for the first time for
// which a scan packs their text into blocks (see texts): with fewer, the
// faults saved are few and the blocks' unused rest is not.
const textsMinFiles = 128

// texts hands out the strings a scan's new documents keep, packed into
// blocks that are mapped a block at a time (prefault) instead of a page
// fault per page as each string is copied in.
//
// Why: a cold scan must hold every document's text, and the read floor
// holds none. On the VM these figures come from a first touch of a page
// costs 17–19 µs (docs/decisions/0801-start-up-cost.md), so the ~1.4–2 MB
// of text of a 1,000-topic tree took 350–500 faults, 6–9 ms against a
// 12–18 ms floor, all of it in the memmove of the one string per document
// (docs/decisions/0611-cold-scan-text.md).
//
// A block stays alive while any document in it does, like the slab of
// Documents a scan allocates: a block whose other documents were re-read
// since keeps their old text. A scan uses texts only for files read for
// the first time (the cold scan, and new files), never for a changed
// file, so the dead text held is at most the text of those first reads.
// A scan that reads fewer than textsMinFiles new files (a daemon's
// rescan after a note was added) copies each string on its own: one new
// note must not pin a mostly empty 64 KiB block for its lifetime.
//
// Each worker has its own texts; the zero value is ready to use and a nil
// *texts copies each string on its own.
type texts struct {
	free []byte // the unused rest of the current block
}

// keep returns b as a string that does not share b's memory.
func (t *texts) keep(b []byte) string {
	if t == nil || len(b) == 0 || len(b) > textChunk/4 {
		return string(b)
	}
	if len(b) > len(t.free) {
		// make, not uninitBytes: fresh from the kernel, a block is
		// neither cleared nor touched before prefault maps it whole,
		// where uninitBytes writes its first byte and takes a page fault
		// per block first (decision 0615).
		t.free = make([]byte, textChunk)
		prefault(t.free)
	}
	n := copy(t.free, b)
	s := unsafe.String(unsafe.SliceData(t.free), n)
	t.free = t.free[n:]
	return s
}

// prefaultSlice is prefault for the memory of a slice of any element
// type: like prefault it only maps pages and never changes what they hold,
// so it is safe on memory that holds pointers.
func prefaultSlice[T any](s []T) {
	if len(s) == 0 {
		return
	}
	var zero T
	prefault(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(zero)))
}

// withTextsMin sets how many first reads a scan needs before it packs
// their text into blocks (textsMinFiles), so that tests of small trees
// exercise the blocks too.
func withTextsMin(n int) Option {
	return func(c *Catalog) { c.textsMin = n }
}
