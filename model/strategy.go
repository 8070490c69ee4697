package model

import "fmt"

// Strategy says where a settled selection came from. It is local to this
// package; the engine maps it onto the telemetry enum of the same name.
type Strategy uint8

const (
	// StrategyNone means nothing was selected: the selector answered with an
	// empty list, the manifest was empty, or the caller cancelled.
	StrategyNone Strategy = iota
	// StrategyHeuristic means the lexical fallback was used: no selector was
	// configured, or it failed, answered invalidly or hit the ceiling.
	StrategyHeuristic
	// StrategyModel means the selector's validated answer was used.
	StrategyModel
)

// String returns the telemetry spelling: "none", "heuristic" or "model".
func (s Strategy) String() string {
	switch s {
	case StrategyNone:
		return "none"
	case StrategyHeuristic:
		return "heuristic"
	case StrategyModel:
		return "model"
	}
	return fmt.Sprintf("Strategy(%d)", uint8(s))
}
