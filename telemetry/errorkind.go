package telemetry

import "fmt"

// ErrorKind is a low-cardinality classification of a selector failure, safe
// to record (unlike the error text, which may hold paths or provider
// messages). Selection.Error carries it; package model classifies errors
// into it (model.ErrorKindOf). Values are never renumbered: new kinds are
// appended.
type ErrorKind uint8

const (
	// ErrorNone: no failure.
	ErrorNone ErrorKind = iota
	// ErrorTimeout: the selector ceiling (model.SelectorTimeout) expired.
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

// ParseErrorKind returns the kind String spells as name.
func ParseErrorKind(name string) (ErrorKind, bool) {
	for k, n := range errorKindNames {
		if n == name {
			return ErrorKind(k), true
		}
	}
	return ErrorNone, false
}
