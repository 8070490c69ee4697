package model

import (
	"time"

	"github.com/memrecall/memrecall/fsm"
)

// Bounds of the selector stage (spec §1.3, §4). They are constants, not options:
// the manifest size and the ceiling are part of the recall contract.
const (
	// DefaultLimit is the number of documents a selector may return when a
	// Request leaves Limit at zero: the lifecycle's cap on a selection,
	// fsm.MaxRelevantDocs, declared there once.
	DefaultLimit = fsm.MaxRelevantDocs
	// SelectorTimeout is the ceiling on one selector call. Past it the call's
	// context is cancelled and Settle falls back to the lexical result.
	SelectorTimeout = 30 * time.Second
	// MaxManifestBytes bounds Manifest.Text, newlines included.
	MaxManifestBytes = 25000
	// MaxDescriptionRunes is where a manifest line's description is cut.
	MaxDescriptionRunes = 512
)
