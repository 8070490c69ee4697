package model

import (
	"context"
	"errors"

	"github.com/memrecall/memrecall/telemetry"
)

// ErrorKind is telemetry's classification of a selector failure (declared
// there once, decision 0903); ErrorKindOf maps an error onto it.
type ErrorKind = telemetry.ErrorKind

// The error kinds, under the names this package's readers expect.
const (
	ErrorNone             = telemetry.ErrorNone
	ErrorTimeout          = telemetry.ErrorTimeout
	ErrorTransport        = telemetry.ErrorTransport
	ErrorHTTPStatus       = telemetry.ErrorHTTPStatus
	ErrorMalformed        = telemetry.ErrorMalformed
	ErrorRefused          = telemetry.ErrorRefused
	ErrorTooMany          = telemetry.ErrorTooMany
	ErrorUnknownDocument  = telemetry.ErrorUnknownDocument
	ErrorDuplicate        = telemetry.ErrorDuplicate
	ErrorRequestTooLarge  = telemetry.ErrorRequestTooLarge
	ErrorResponseTooLarge = telemetry.ErrorResponseTooLarge
	ErrorConfig           = telemetry.ErrorConfig
	ErrorPanic            = telemetry.ErrorPanic
	ErrorOther            = telemetry.ErrorOther
	ErrorRedirect         = telemetry.ErrorRedirect
)

// ErrorKindOf classifies err by the sentinels it wraps. A nil error is
// ErrorNone; context.DeadlineExceeded counts as a timeout. Settle decides
// timeouts from its own context rather than from the error, because a
// selector may report the expired deadline as anything.
func ErrorKindOf(err error) ErrorKind {
	switch {
	case err == nil:
		return ErrorNone
	case errors.Is(err, ErrTooMany):
		return ErrorTooMany
	case errors.Is(err, ErrUnknownDocument):
		return ErrorUnknownDocument
	case errors.Is(err, ErrDuplicate):
		return ErrorDuplicate
	case errors.Is(err, ErrMalformed):
		return ErrorMalformed
	case errors.Is(err, ErrRefused):
		return ErrorRefused
	case errors.Is(err, ErrStatus):
		return ErrorHTTPStatus
	case errors.Is(err, ErrRequestTooLarge):
		return ErrorRequestTooLarge
	case errors.Is(err, ErrResponseTooLarge):
		return ErrorResponseTooLarge
	case errors.Is(err, ErrConfig):
		return ErrorConfig
	case errors.Is(err, ErrPanic):
		return ErrorPanic
	case errors.Is(err, ErrRedirect):
		return ErrorRedirect
	case errors.Is(err, context.DeadlineExceeded):
		return ErrorTimeout
	case errors.Is(err, ErrTransport):
		return ErrorTransport
	}
	return ErrorOther
}
