package model

import (
	"context"
	"errors"
	"fmt"
)

// ErrorKind is a low-cardinality classification of a selector failure, safe
// to record in telemetry (unlike the error text, which may hold paths or
// provider messages).
type ErrorKind uint8

const (
	// ErrorNone: no failure.
	ErrorNone ErrorKind = iota
	// ErrorTimeout: the SelectorTimeout ceiling expired.
	ErrorTimeout
	// ErrorTransport: the request could not be sent or the response read.
	ErrorTransport
	// ErrorHTTPStatus: the endpoint answered with a non-2xx status.
	ErrorHTTPStatus
	// ErrorMalformed: the response was not the expected JSON shape.
	ErrorMalformed
	// ErrorRefused: the model declined to answer.
	ErrorRefused
	// ErrorTooMany: the answer exceeded the limit.
	ErrorTooMany
	// ErrorUnknownDocument: the answer named a document outside the manifest.
	ErrorUnknownDocument
	// ErrorDuplicate: the answer named a document twice.
	ErrorDuplicate
	// ErrorRequestTooLarge: the request exceeded the adapter's size limit.
	ErrorRequestTooLarge
	// ErrorResponseTooLarge: the response exceeded the adapter's size limit.
	ErrorResponseTooLarge
	// ErrorConfig: the adapter's configuration is unusable.
	ErrorConfig
	// ErrorPanic: the selector panicked.
	ErrorPanic
	// ErrorOther: a selector error that matches none of the sentinels.
	ErrorOther
	// ErrorRedirect: the endpoint redirected; the adapter does not follow.
	// (Appended after ErrorOther: values are never renumbered.)
	ErrorRedirect
)

var errorKindNames = [...]string{
	ErrorNone:             "none",
	ErrorTimeout:          "timeout",
	ErrorTransport:        "transport",
	ErrorHTTPStatus:       "http_status",
	ErrorMalformed:        "malformed",
	ErrorRefused:          "refused",
	ErrorTooMany:          "too_many",
	ErrorUnknownDocument:  "unknown_document",
	ErrorDuplicate:        "duplicate",
	ErrorRequestTooLarge:  "request_too_large",
	ErrorResponseTooLarge: "response_too_large",
	ErrorConfig:           "config",
	ErrorPanic:            "panic",
	ErrorOther:            "other",
	ErrorRedirect:         "redirect",
}

// String returns the telemetry spelling, e.g. "timeout" or "http_status".
func (k ErrorKind) String() string {
	if int(k) < len(errorKindNames) {
		return errorKindNames[k]
	}
	return fmt.Sprintf("ErrorKind(%d)", uint8(k))
}

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
