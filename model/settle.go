package model

import (
	"context"
	"fmt"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/telemetry"
)

// Settle asks sel to choose from req.Manifest under the SelectorTimeout
// ceiling and applies the policy of spec §4.5:
//
//   - caller's ctx ends (before or during the call) → Cancelled, nothing
//     selected, telemetry.StrategyNone, whatever the selector returned;
//   - sel is nil (deterministic-only host) → telemetry.StrategyHeuristic, ErrKind
//     telemetry.ErrorNone, no call;
//   - the manifest is empty → telemetry.StrategyNone, no call (no answer could be
//     valid, and the lexical ranking holds the same candidates);
//   - an error, a panic or the ceiling → telemetry.StrategyHeuristic, ErrKind and
//     Err set;
//   - an answer with more than the limit, a key outside the manifest or a
//     repeated key → telemetry.StrategyHeuristic with ErrTooMany, ErrUnknownDocument
//     or ErrDuplicate;
//   - an empty answer → telemetry.StrategyNone, nothing selected;
//   - otherwise telemetry.StrategyModel with the answer's IDs in answer order.
//
// The selector sees req with Limit set to the effective limit. Settle
// returns by the ceiling even if sel ignores its context: the call runs on
// its own goroutine, which is left to finish on its own in that case.
//
// telemetry.StrategyHeuristic carries no documents: the caller falls back to its own
// lexical ranking. In memrecall the fsm does, with the top MaxRelevantDocs
// of the ranking it already holds (spec §4.5), so the fallback is computed
// in one place.
func Settle(ctx context.Context, sel Selector, req Request) Outcome {
	start := time.Now()
	out := settle(ctx, sel, req)
	out.Duration = time.Since(start)
	return out
}

func settle(parent context.Context, sel Selector, req Request) Outcome {
	if parent.Err() != nil {
		return Outcome{Cancelled: true}
	}
	req.Limit = req.EffectiveLimit()
	heuristic := func(err error, kind ErrorKind) Outcome {
		return Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: kind, Err: err}
	}
	if sel == nil {
		return heuristic(nil, telemetry.ErrorNone)
	}
	if req.Manifest.Len() == 0 {
		return Outcome{Strategy: telemetry.StrategyNone}
	}

	ctx, cancel := context.WithTimeout(parent, SelectorTimeout)
	defer cancel()
	type result struct {
		keys []string
		err  error
	}
	done := make(chan result, 1) // buffered: a late selector never blocks
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{err: fmt.Errorf("%w: %v", ErrPanic, p)}
			}
			done <- r
		}()
		r.keys, r.err = sel.Select(ctx, req)
	}()

	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
	}
	switch {
	case parent.Err() != nil:
		return Outcome{Cancelled: true}
	case ctx.Err() != nil:
		// The ceiling expired, before or while the answer came back: a late
		// answer is not used, so the strategy never depends on a race.
		return heuristic(fmt.Errorf("model: selector exceeded %v: %w", SelectorTimeout, context.DeadlineExceeded), telemetry.ErrorTimeout)
	case r.err != nil:
		return heuristic(r.err, ErrorKindOf(r.err))
	}
	ids, err := Validate(req.Manifest, r.keys, req.Limit)
	if err != nil {
		return heuristic(err, ErrorKindOf(err))
	}
	if len(ids) == 0 {
		return Outcome{Strategy: telemetry.StrategyNone}
	}
	return Outcome{Strategy: telemetry.StrategyModel, Docs: ids}
}

// Validate maps an answer's keys to document IDs, in answer order. It fails
// with ErrTooMany when the answer holds more than limit keys, with
// ErrUnknownDocument for a key outside m (matching is exact) and with
// ErrDuplicate for a repeated key. The error text names the offending key's
// position, never the key itself, so it cannot carry a path.
func Validate(m *Manifest, keys []string, limit int) ([]memory.ID, error) {
	if len(keys) > limit {
		return nil, fmt.Errorf("%w: %d documents, limit %d", ErrTooMany, len(keys), limit)
	}
	if len(keys) == 0 {
		return nil, nil
	}
	ids := make([]memory.ID, 0, len(keys))
	for i, k := range keys {
		id, ok := m.Lookup(k)
		if !ok {
			return nil, fmt.Errorf("%w: answer item %d", ErrUnknownDocument, i)
		}
		for j, prev := range ids {
			if prev == id {
				return nil, fmt.Errorf("%w: answer items %d and %d", ErrDuplicate, j, i)
			}
		}
		ids = append(ids, id)
	}
	return ids, nil
}
