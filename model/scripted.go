package model

import (
	"context"
	"time"
)

// Scripted is a Selector with a fixed reply, for tests, evaluation and
// property suites: it returns a copy of Answer, or Err when Err is set. It
// answers at once and ignores the request; wrap it in Delayed to model
// latency.
type Scripted struct {
	// Answer is the keys to return.
	Answer []string
	// Err, when non-nil, is returned instead of Answer.
	Err error
}

// Select returns s.Err, else a copy of s.Answer. A context that has already
// ended wins, as it would for a real call.
func (s Scripted) Select(ctx context.Context, _ Request) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.Err != nil {
		return nil, s.Err
	}
	return append([]string(nil), s.Answer...), nil
}

// Delayed runs Inner after Delay, modelling the selector's network round
// trip. It waits on a timer and on the context, so it works under
// testing/synctest's fake clock and stops early when cancelled. A nil Inner
// answers with an empty list.
type Delayed struct {
	// Inner is the selector that answers once the delay has passed.
	Inner Selector
	// Delay is how long to wait before asking Inner.
	Delay time.Duration
}

// Select waits for d.Delay, then returns Inner's answer; if ctx ends first
// it returns ctx.Err().
func (d Delayed) Select(ctx context.Context, req Request) ([]string, error) {
	if d.Delay > 0 {
		t := time.NewTimer(d.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if d.Inner == nil {
		return nil, nil
	}
	return d.Inner.Select(ctx, req)
}
