package model

import (
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/telemetry"
)

// Outcome is how one selector call settled, after validation and policy.
type Outcome struct {
	// Strategy says where the selection comes from: the model's answer,
	// nothing, or the caller's lexical ranking (heuristic). It is the
	// telemetry enum itself, so a plan's trace, its telemetry and its
	// injections name strategies with one type.
	Strategy telemetry.Strategy
	// Docs are the model's valid answer, in answer order; empty unless
	// Strategy is StrategyModel (for StrategyHeuristic the caller uses its
	// lexical ranking).
	Docs []memory.ID
	// Duration is the time spent in Settle, selector call included.
	Duration time.Duration
	// Cancelled reports that the caller's context ended first; nothing is
	// selected and the plan must deliver nothing more.
	Cancelled bool
	// ErrKind classifies the selector failure behind a heuristic fallback;
	// telemetry.ErrorNone otherwise. Safe for telemetry.
	ErrKind ErrorKind
	// Err is the failure itself, for the host's debugging only: its text may
	// hold paths or provider messages and must never reach telemetry.
	Err error
}
