//go:build !linux

package memory

// prefault does nothing off Linux (see prefault_linux.go).
func prefault([]byte) {}
