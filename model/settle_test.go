package model

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/telemetry"
)

// fixture returns a manifest of seven project documents a.md … g.md and
// their IDs in order (the lexical fallback in these tests).
func fixture() (*Manifest, []memory.ID) {
	var docs []*memory.Document
	var ids []memory.ID
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		d := doc(memory.ScopeProject, name+".md", memory.TypeProject, "about "+name)
		docs = append(docs, d)
		ids = append(ids, d.ID)
	}
	return BuildManifest(docs), ids
}

func TestSettle(t *testing.T) {
	m, ids := fixture()
	statusErr := &StatusError{StatusCode: 503}
	tests := []struct {
		name     string
		sel      Selector
		manifest *Manifest
		limit    int
		want     Outcome // Err compared with errors.Is, Duration ignored
	}{
		{"valid answer, answer order kept", Scripted{Answer: []string{"project/c.md", "project/a.md"}}, m, 0,
			Outcome{Strategy: telemetry.StrategyModel, Docs: []memory.ID{ids[2], ids[0]}}},
		{"full answer at the limit", Scripted{Answer: []string{"project/g.md", "project/f.md", "project/e.md", "project/d.md", "project/c.md"}}, m, 0,
			Outcome{Strategy: telemetry.StrategyModel, Docs: []memory.ID{ids[6], ids[5], ids[4], ids[3], ids[2]}}},
		{"nil answer selects nothing", Scripted{}, m, 0, Outcome{Strategy: telemetry.StrategyNone}},
		{"empty answer selects nothing", Scripted{Answer: []string{}}, m, 0, Outcome{Strategy: telemetry.StrategyNone}},
		{"too many", Scripted{Answer: []string{"project/a.md", "project/b.md", "project/c.md", "project/d.md", "project/e.md", "project/f.md"}}, m, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorTooMany, Err: ErrTooMany}},
		{"too many for a custom limit; fallback cut to it", Scripted{Answer: []string{"project/a.md", "project/b.md", "project/c.md"}}, m, 2,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorTooMany, Err: ErrTooMany}},
		{"unknown key", Scripted{Answer: []string{"project/a.md", "project/zzz.md"}}, m, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorUnknownDocument, Err: ErrUnknownDocument}},
		{"absolute ID is not a manifest key", Scripted{Answer: []string{string(ids[0])}}, m, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorUnknownDocument, Err: ErrUnknownDocument}},
		{"duplicate", Scripted{Answer: []string{"project/a.md", "project/b.md", "project/a.md"}}, m, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorDuplicate, Err: ErrDuplicate}},
		{"malformed", Scripted{Err: fmt.Errorf("%w: bad", ErrMalformed)}, m, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorMalformed, Err: ErrMalformed}},
		{"http status", Scripted{Err: statusErr}, m, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorHTTPStatus, Err: ErrStatus}},
		{"unclassified error", Scripted{Err: errors.New("host selector broke")}, m, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorOther}},
		{"panic is recovered", SelectorFunc(func(context.Context, Request) ([]string, error) { panic("boom") }), m, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorPanic, Err: ErrPanic}},
		{"nil selector: deterministic only", nil, m, 0, Outcome{Strategy: telemetry.StrategyHeuristic}},
		{"empty manifest: nothing to choose from", Scripted{Answer: []string{"project/a.md"}}, BuildManifest(nil), 0,
			Outcome{Strategy: telemetry.StrategyNone}},
		{"nil manifest", Scripted{Answer: []string{"project/a.md"}}, nil, 0, Outcome{Strategy: telemetry.StrategyNone}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Settle(context.Background(), tt.sel, Request{Query: "q", Manifest: tt.manifest, Limit: tt.limit})
			checkOutcome(t, got, tt.want)
			if tt.want.Err == nil && tt.want.ErrKind == telemetry.ErrorNone && got.Err != nil {
				t.Errorf("Err = %v, want nil", got.Err)
			}
		})
	}
}

// checkOutcome compares everything but Duration and Err; Err is matched
// with errors.Is against want.Err when want.Err is set.
func checkOutcome(t *testing.T, got, want Outcome) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Outcome{}, "Duration", "Err")); diff != "" {
		t.Errorf("Outcome mismatch (-want +got):\n%s", diff)
	}
	if want.Err != nil && !errors.Is(got.Err, want.Err) {
		t.Errorf("Err = %v, want errors.Is %v", got.Err, want.Err)
	}
	if (got.ErrKind != telemetry.ErrorNone) != (got.Err != nil) {
		t.Errorf("ErrKind %v with Err %v", got.ErrKind, got.Err)
	}
}

func TestSettleDoesNotCallNeedlessly(t *testing.T) {
	m, _ := fixture()
	calls := 0
	counting := SelectorFunc(func(context.Context, Request) ([]string, error) { calls++; return nil, nil })

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := Settle(ctx, counting, Request{Manifest: m}); !got.Cancelled || got.Strategy != telemetry.StrategyNone || got.Docs != nil {
		t.Errorf("cancelled before the call: %+v", got)
	}
	Settle(context.Background(), counting, Request{Manifest: BuildManifest(nil)})
	if calls != 0 {
		t.Errorf("selector called %d times, want 0", calls)
	}
}

// TestSettlePassesEffectiveLimit: the selector sees the request with the
// effective limit; a failure selects nothing itself (the caller's lexical
// ranking stands in).
func TestSettlePassesEffectiveLimit(t *testing.T) {
	m, _ := fixture()
	var seen Request
	sel := SelectorFunc(func(_ context.Context, req Request) ([]string, error) {
		seen = req
		return nil, errors.New("fail")
	})
	got := Settle(context.Background(), sel, Request{Query: "deploy", Manifest: m, RecentTools: []string{"Bash"}})
	if seen.Limit != DefaultLimit || seen.Query != "deploy" || seen.Manifest != m || len(seen.RecentTools) != 1 {
		t.Errorf("selector saw %+v", seen)
	}
	if got.Strategy != telemetry.StrategyHeuristic || got.Docs != nil || got.ErrKind != telemetry.ErrorOther {
		t.Errorf("a failed call settled as %+v, want heuristic with no documents", got)
	}
}

func TestSettleTiming(t *testing.T) {
	m, ids := fixture()
	answer := Scripted{Answer: []string{"project/b.md"}}
	tests := []struct {
		name         string
		sel          Selector
		cancelAfter  time.Duration // 0: the caller never cancels
		want         Outcome
		wantDuration time.Duration
	}{
		{"answer just inside the ceiling", Delayed{Inner: answer, Delay: SelectorTimeout - time.Millisecond}, 0,
			Outcome{Strategy: telemetry.StrategyModel, Docs: []memory.ID{ids[1]}}, SelectorTimeout - time.Millisecond},
		{"answer after the ceiling", Delayed{Inner: answer, Delay: SelectorTimeout + time.Second}, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorTimeout, Err: context.DeadlineExceeded}, SelectorTimeout},
		{"selector ignoring its context is abandoned at the ceiling", nil, 0,
			Outcome{Strategy: telemetry.StrategyHeuristic, ErrKind: telemetry.ErrorTimeout, Err: context.DeadlineExceeded}, SelectorTimeout},
		{"caller cancels mid-call", Delayed{Inner: answer, Delay: 10 * time.Second}, time.Second,
			Outcome{Cancelled: true}, time.Second},
		{"caller cancels while a context-ignoring selector runs", nil, 2 * time.Second,
			Outcome{Cancelled: true}, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sel := tt.sel
				release := make(chan struct{})
				defer close(release) // lets an abandoned selector finish inside the bubble
				if sel == nil {
					sel = SelectorFunc(func(context.Context, Request) ([]string, error) {
						<-release
						return []string{"project/a.md"}, nil
					})
				}
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				if tt.cancelAfter > 0 {
					time.AfterFunc(tt.cancelAfter, cancel)
				}
				got := Settle(ctx, sel, Request{Manifest: m})
				checkOutcome(t, got, tt.want)
				if got.Duration != tt.wantDuration {
					t.Errorf("Duration = %v, want %v (fake clock)", got.Duration, tt.wantDuration)
				}
			})
		})
	}
}
