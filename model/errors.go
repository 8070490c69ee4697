package model

import (
	"errors"
	"fmt"
)

// Sentinel errors. Settle and the OpenAI adapter wrap them with %w so callers
// can test with errors.Is; ErrorKindOf maps them to a telemetry-safe kind.
var (
	// ErrTooMany: the answer holds more documents than the request's limit.
	ErrTooMany = errors.New("model: answer exceeds the limit")
	// ErrUnknownDocument: the answer names a key that is not in the manifest.
	ErrUnknownDocument = errors.New("model: answer names a document outside the manifest")
	// ErrDuplicate: the answer names the same document twice.
	ErrDuplicate = errors.New("model: answer names a document twice")
	// ErrMalformed: the response is not the expected JSON shape.
	ErrMalformed = errors.New("model: malformed response")
	// ErrRefused: the model declined to answer (an OpenAI "refusal").
	ErrRefused = errors.New("model: the model refused")
	// ErrStatus: the endpoint answered with a non-2xx HTTP status; the error
	// is a *StatusError.
	ErrStatus = errors.New("model: unexpected HTTP status")
	// ErrTransport: the request could not be sent or the response not read.
	ErrTransport = errors.New("model: transport failure")
	// ErrRequestTooLarge: the encoded request exceeds the adapter's limit,
	// so it was not sent.
	ErrRequestTooLarge = errors.New("model: request body too large")
	// ErrResponseTooLarge: the response body exceeds the adapter's limit.
	ErrResponseTooLarge = errors.New("model: response body too large")
	// ErrConfig: the adapter's configuration is unusable (no base URL or
	// model, or a base URL that is not an absolute http(s) URL).
	ErrConfig = errors.New("model: invalid selector configuration")
	// ErrRedirect: the endpoint answered with a redirect (3xx). The adapter
	// never follows one: it would forward the key, the query and the
	// manifest to another address.
	ErrRedirect = errors.New("model: selector endpoint redirected (not followed)")
	// ErrPanic: the selector panicked; Settle recovered it because the call
	// runs on an engine goroutine where a panic would end the host process.
	ErrPanic = errors.New("model: selector panicked")
)

// StatusError is returned by the OpenAI adapter for a non-2xx response. It
// matches ErrStatus under errors.Is. Message is the provider's own error
// message, bounded, on one line, with the API key redacted; the response
// body itself is never kept because it may echo the prompt.
type StatusError struct {
	// StatusCode is the HTTP status code.
	StatusCode int
	// Message is the provider's error message, possibly empty.
	Message string
}

// Error implements error.
func (e *StatusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("model: HTTP status %d", e.StatusCode)
	}
	return fmt.Sprintf("model: HTTP status %d: %s", e.StatusCode, e.Message)
}

// Is makes errors.Is(err, ErrStatus) true for every *StatusError.
func (e *StatusError) Is(target error) bool { return target == ErrStatus }
