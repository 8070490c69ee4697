//go:build !linux

package memory

// newReadBuffer returns a buffer of n bytes for a file about to be read
// into it whole, its content undefined until then (see prefault_linux.go
// for what Linux adds).
func newReadBuffer(n int) []byte { return uninitBytes(n) }

// prefault does nothing off Linux (see prefault_linux.go).
func prefault([]byte) {}
