package model

import "context"

// Request is what a Selector is asked.
type Request struct {
	// Query is the user's query text. It is sent to the model and must never
	// reach telemetry.
	Query string
	// Manifest holds the candidate documents the selector may choose from.
	// A nil Manifest is an empty one.
	Manifest *Manifest
	// RecentTools names the tools the agent used recently (at most 20 are
	// used), so the selector can skip usage references for them (spec §3.8).
	RecentTools []string
	// Limit is the most documents the answer may hold; zero or less means
	// DefaultLimit. Settle passes the effective limit to the selector.
	Limit int
}

// EffectiveLimit is Limit, or DefaultLimit when Limit is not positive.
func (r Request) EffectiveLimit() int {
	if r.Limit <= 0 {
		return DefaultLimit
	}
	return r.Limit
}

// Selector picks documents for a query from a manifest. It returns manifest
// keys (Manifest.Keys), most useful first; an empty answer means none is
// clearly relevant. It must honour ctx: Settle cancels it at SelectorTimeout
// and when the caller goes away. Settle validates every answer, so an
// implementation need not.
type Selector interface {
	Select(ctx context.Context, req Request) ([]string, error)
}

// SelectorFunc adapts a function to the Selector interface.
type SelectorFunc func(ctx context.Context, req Request) ([]string, error)

// Select calls f.
func (f SelectorFunc) Select(ctx context.Context, req Request) ([]string, error) {
	return f(ctx, req)
}
