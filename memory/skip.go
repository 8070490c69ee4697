package memory

import (
	"errors"
	"fmt"
	"strings"
)

// SkipReason says why a scan passed over a file or a directory. The set is
// small and fixed so a host can record it in telemetry as a label: it never
// carries a path or any content.
type SkipReason uint8

// The skip reasons. Their numeric values index SkipCounts; new reasons are
// only ever appended.
const (
	// SkipUnreadable: an I/O error other than the ones below, a dangling
	// symlink, or a `.md` entry that is not a regular file (FIFO, device).
	SkipUnreadable SkipReason = iota
	// SkipPermission: permission denied on a file or directory.
	SkipPermission
	// SkipRootMissing: a scope root that does not exist or is not a
	// directory.
	SkipRootMissing
	// SkipVanished: a file or directory that disappeared (or was replaced
	// by another kind of entry) between listing and reading.
	SkipVanished
	// SkipSymlinkOutside: a symlink whose target is outside its scope root.
	SkipSymlinkOutside
	// SkipSymlinkLoop: a symlink that loops, or that leads to a directory
	// the scan has already entered (an ancestor or an alias).
	SkipSymlinkLoop
	// SkipBinary: content with NUL bytes.
	SkipBinary
	// SkipInvalidUTF8: content that is not UTF-8.
	SkipInvalidUTF8
	// SkipNoFrontmatter: the file does not start with a `---` line.
	SkipNoFrontmatter
	// SkipUnterminatedFrontmatter: the file ends before the closing `---`.
	SkipUnterminatedFrontmatter
	// SkipTooLarge: the closing `---` is not within ReadLimit bytes.
	SkipTooLarge
	// SkipMissingType: the frontmatter has no `type`.
	SkipMissingType
	// SkipUnknownType: `type` is not user, feedback, project or reference.
	SkipUnknownType
	// SkipInvalidYAML: a frontmatter that needs a YAML reading (it nests)
	// and does not parse as a YAML mapping.
	SkipInvalidYAML
	// SkipNotString: `type`, `metadata.type`, `name`, `title` or
	// `description` is a mapping or a sequence.
	SkipNotString

	numSkipReasons
)

var skipNames = [numSkipReasons]string{
	SkipUnreadable:              "unreadable",
	SkipPermission:              "permission",
	SkipRootMissing:             "root_missing",
	SkipVanished:                "vanished",
	SkipSymlinkOutside:          "symlink_outside",
	SkipSymlinkLoop:             "symlink_loop",
	SkipBinary:                  "binary",
	SkipInvalidUTF8:             "invalid_utf8",
	SkipNoFrontmatter:           "no_frontmatter",
	SkipUnterminatedFrontmatter: "unterminated_frontmatter",
	SkipTooLarge:                "too_large",
	SkipMissingType:             "missing_type",
	SkipUnknownType:             "unknown_type",
	SkipInvalidYAML:             "invalid_yaml",
	SkipNotString:               "not_string",
}

// String returns the reason's snake_case label.
func (r SkipReason) String() string {
	if r < numSkipReasons {
		return skipNames[r]
	}
	return fmt.Sprintf("SkipReason(%d)", uint8(r))
}

// SkipReasons lists every reason in numeric order.
func SkipReasons() []SkipReason {
	rs := make([]SkipReason, numSkipReasons)
	for i := range rs {
		rs[i] = SkipReason(i)
	}
	return rs
}

// SkipCounts counts skips per reason; index it with a SkipReason. It is a
// fixed array so a Result copies without sharing and compares with ==.
type SkipCounts [numSkipReasons]int

// Total returns the number of skips of every reason.
func (c SkipCounts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// String lists the non-zero counts as `reason=n`, in reason order, or
// "none".
func (c SkipCounts) String() string {
	var b strings.Builder
	for r, n := range c {
		if n == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", SkipReason(r), n)
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

// skipFor maps a Parse error to its skip reason.
func skipFor(err error) SkipReason {
	switch {
	case errors.Is(err, ErrBinary):
		return SkipBinary
	case errors.Is(err, ErrInvalidUTF8):
		return SkipInvalidUTF8
	case errors.Is(err, ErrNoFrontmatter):
		return SkipNoFrontmatter
	case errors.Is(err, ErrUnterminatedFrontmatter):
		return SkipUnterminatedFrontmatter
	case errors.Is(err, ErrFrontmatterTooLong):
		return SkipTooLarge
	case errors.Is(err, ErrMissingType):
		return SkipMissingType
	case errors.Is(err, ErrUnknownType):
		return SkipUnknownType
	case errors.Is(err, ErrInvalidYAML):
		return SkipInvalidYAML
	case errors.Is(err, ErrNotString):
		return SkipNotString
	}
	return SkipUnreadable
}
