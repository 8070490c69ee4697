//go:build !linux

package memory

// newReadBuffer returns a zeroed buffer of n bytes (see prefault_linux.go
// for what Linux adds).
func newReadBuffer(n int) []byte { return make([]byte, n) }

// prefault does nothing off Linux (see prefault_linux.go).
func prefault([]byte) {}
