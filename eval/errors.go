package eval

import "errors"

// Sentinel errors of corpus loading. Every error Load and Parse return wraps
// ErrCorpus and, for a validation problem, one of the more specific
// sentinels, so callers can test with errors.Is while users read one line
// that names the document or case at fault.
var (
	// ErrCorpus wraps every problem with a corpus file.
	ErrCorpus = errors.New("invalid corpus")
	// ErrSyntax: the file is not a JSON object of the corpus schema
	// (bad JSON, an unknown field, a value of the wrong kind).
	ErrSyntax = errors.New("malformed JSON")
	// ErrEmpty: the corpus has no documents or no cases.
	ErrEmpty = errors.New("nothing to evaluate")
	// ErrBadID: a document or case id is empty or is not a safe file name.
	ErrBadID = errors.New("bad id")
	// ErrDuplicateID: two documents (or two cases) share an id.
	ErrDuplicateID = errors.New("duplicate id")
	// ErrBadScope: a document's scope is neither project nor user.
	ErrBadScope = errors.New("bad scope")
	// ErrBadType: a document's type is not one of the four memory types.
	ErrBadType = errors.New("bad type")
	// ErrBadTimestamp: a document's modified is not an RFC 3339 time.
	ErrBadTimestamp = errors.New("bad timestamp")
	// ErrBadText: a field holds text that cannot be written to a topic
	// file faithfully (a NUL or another control character).
	ErrBadText = errors.New("bad text")
	// ErrUnknownSlice: a case names a slice outside Slices().
	ErrUnknownSlice = errors.New("unknown slice")
	// ErrEmptyQuery: a case has an empty query.
	ErrEmptyQuery = errors.New("empty query")
	// ErrUnknownDocument: a case's relevant or top names no document.
	ErrUnknownDocument = errors.New("unknown document")
	// ErrBadTop: a case's top is not among its relevant documents.
	ErrBadTop = errors.New("top not in relevant")
	// ErrSliceMismatch: a case's labels contradict its slice (a
	// no-result case with relevant documents, a semantic case without).
	ErrSliceMismatch = errors.New("labels contradict the slice")
	// ErrNotScanned: the scan did not return a document the harness wrote
	// (the memory parser skipped it), so the corpus cannot be measured
	// faithfully.
	ErrNotScanned = errors.New("document not scanned")
)
