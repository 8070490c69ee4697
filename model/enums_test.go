package model

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memrecall/memrecall/telemetry"
)

func TestErrorKindOf(t *testing.T) {
	tests := []struct {
		err  error
		want ErrorKind
	}{
		{nil, telemetry.ErrorNone},
		{fmt.Errorf("x: %w", ErrTooMany), telemetry.ErrorTooMany},
		{fmt.Errorf("x: %w", ErrUnknownDocument), telemetry.ErrorUnknownDocument},
		{fmt.Errorf("x: %w", ErrDuplicate), telemetry.ErrorDuplicate},
		{fmt.Errorf("x: %w", ErrMalformed), telemetry.ErrorMalformed},
		{ErrRefused, telemetry.ErrorRefused},
		{&StatusError{StatusCode: 429}, telemetry.ErrorHTTPStatus},
		{fmt.Errorf("x: %w", &StatusError{StatusCode: 500}), telemetry.ErrorHTTPStatus},
		{ErrRequestTooLarge, telemetry.ErrorRequestTooLarge},
		{ErrResponseTooLarge, telemetry.ErrorResponseTooLarge},
		{ErrConfig, telemetry.ErrorConfig},
		{ErrPanic, telemetry.ErrorPanic},
		{fmt.Errorf("x: %w", ErrRedirect), telemetry.ErrorRedirect},
		{fmt.Errorf("%w: dial: %w", ErrTransport, context.DeadlineExceeded), telemetry.ErrorTimeout},
		{fmt.Errorf("%w: connection refused", ErrTransport), telemetry.ErrorTransport},
		{errors.New("something else"), telemetry.ErrorOther},
	}
	for _, tt := range tests {
		if got := ErrorKindOf(tt.err); got != tt.want {
			t.Errorf("ErrorKindOf(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestStatusErrorText(t *testing.T) {
	for _, tt := range []struct {
		err  *StatusError
		want string
	}{
		{&StatusError{StatusCode: 503}, "model: HTTP status 503"},
		{&StatusError{StatusCode: 400, Message: "bad schema"}, "model: HTTP status 400: bad schema"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestScriptedAndDelayed(t *testing.T) {
	ctx := context.Background()
	s := Scripted{Answer: []string{"project/a.md"}}
	got, _ := s.Select(ctx, Request{})
	got[0] = "mutated"
	if again, _ := s.Select(ctx, Request{}); again[0] != "project/a.md" {
		t.Error("Scripted hands out its own slice")
	}
	boom := errors.New("boom")
	if _, err := (Scripted{Answer: []string{"x"}, Err: boom}).Select(ctx, Request{}); err != boom {
		t.Errorf("Scripted error = %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Select(cancelled, Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Scripted on a cancelled context: %v", err)
	}
	if keys, err := (Delayed{}).Select(ctx, Request{}); keys != nil || err != nil {
		t.Errorf("Delayed without Inner = %v, %v", keys, err)
	}

	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		keys, err := Delayed{Inner: s, Delay: 3 * time.Second}.Select(t.Context(), Request{})
		if err != nil || len(keys) != 1 || time.Since(start) != 3*time.Second {
			t.Errorf("Delayed = %v, %v after %v", keys, err, time.Since(start))
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		start = time.Now()
		_, err = Delayed{Inner: s, Delay: time.Hour}.Select(ctx, Request{})
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second {
			t.Errorf("Delayed under a 1s deadline: %v after %v", err, time.Since(start))
		}
	})
}
