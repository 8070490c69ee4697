package memory

import "errors"

// Sentinel errors callers can test with errors.Is.
var (
	// ErrUnknownScope is returned by ParseScope for an unknown spelling.
	ErrUnknownScope = errors.New("memory: unknown scope")
	// ErrUnknownType is returned by ParseType for an unknown spelling.
	ErrUnknownType = errors.New("memory: unknown type")
)
