package model

import (
	"context"
	"errors"

	"github.com/memrecall/memrecall/telemetry"
)

// ErrorKind is telemetry's classification of a selector failure, declared
// there once with its values (telemetry.ErrorNone, telemetry.ErrorTimeout,
// ...; decision 0903); ErrorKindOf maps an error onto it.
type ErrorKind = telemetry.ErrorKind

// The error kinds under their old names in this package, kept so that code
// written against earlier versions still compiles: each is the telemetry
// constant itself, not a second declaration (decision 0903).
//
// Deprecated: use telemetry.ErrorNone, telemetry.ErrorTimeout and the
// others of the same names.
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
// telemetry.ErrorNone; context.DeadlineExceeded counts as a timeout.
// Settle decides timeouts from its own context rather than from the error,
// because a selector may report the expired deadline as anything.
func ErrorKindOf(err error) ErrorKind {
	switch {
	case err == nil:
		return telemetry.ErrorNone
	case errors.Is(err, ErrTooMany):
		return telemetry.ErrorTooMany
	case errors.Is(err, ErrUnknownDocument):
		return telemetry.ErrorUnknownDocument
	case errors.Is(err, ErrDuplicate):
		return telemetry.ErrorDuplicate
	case errors.Is(err, ErrMalformed):
		return telemetry.ErrorMalformed
	case errors.Is(err, ErrRefused):
		return telemetry.ErrorRefused
	case errors.Is(err, ErrStatus):
		return telemetry.ErrorHTTPStatus
	case errors.Is(err, ErrRequestTooLarge):
		return telemetry.ErrorRequestTooLarge
	case errors.Is(err, ErrResponseTooLarge):
		return telemetry.ErrorResponseTooLarge
	case errors.Is(err, ErrConfig):
		return telemetry.ErrorConfig
	case errors.Is(err, ErrPanic):
		return telemetry.ErrorPanic
	case errors.Is(err, ErrRedirect):
		return telemetry.ErrorRedirect
	case errors.Is(err, context.DeadlineExceeded):
		return telemetry.ErrorTimeout
	case errors.Is(err, ErrTransport):
		return telemetry.ErrorTransport
	}
	return telemetry.ErrorOther
}
