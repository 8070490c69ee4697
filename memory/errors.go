package memory

import "errors"

// Sentinel errors callers can test with errors.Is.
var (
	// ErrUnknownScope is returned by ParseScope for an unknown spelling.
	ErrUnknownScope = errors.New("memory: unknown scope")
	// ErrUnknownType is returned by ParseType for an unknown spelling, and
	// by Parse for a `type` value that is not one of the four types.
	ErrUnknownType = errors.New("memory: unknown type")
	// ErrMissingType is returned by Parse when the frontmatter has no
	// (or an empty) `type` key.
	ErrMissingType = errors.New("memory: frontmatter has no type")
	// ErrNoFrontmatter is returned by Parse when the file does not start
	// with a `---` line.
	ErrNoFrontmatter = errors.New("memory: no frontmatter")
	// ErrUnterminatedFrontmatter is returned by Parse when the opening
	// `---` has no closing `---` line before the end of the file.
	ErrUnterminatedFrontmatter = errors.New("memory: unterminated frontmatter")
	// ErrFrontmatterTooLong is returned by the scan when the closing `---`
	// does not appear within ReadLimit bytes of a longer file.
	ErrFrontmatterTooLong = errors.New("memory: frontmatter longer than the read limit")
	// ErrInvalidUTF8 is returned by Parse for text that is not UTF-8.
	ErrInvalidUTF8 = errors.New("memory: invalid UTF-8")
	// ErrBinary is returned by Parse for content with NUL bytes.
	ErrBinary = errors.New("memory: binary content")
	// ErrInvalidYAML is returned by Parse for a frontmatter that nests
	// (or otherwise needs a YAML reading) but does not parse as a YAML
	// mapping.
	ErrInvalidYAML = errors.New("memory: frontmatter is not valid YAML")
	// ErrNotString is returned by Parse when `type`, `metadata.type`,
	// `name`, `title` or `description` is a mapping or a sequence.
	ErrNotString = errors.New("memory: frontmatter value is not a string")
)
