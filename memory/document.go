package memory

import (
	"fmt"
	"time"
)

// Scope says which memory tree a document comes from. Project memory is
// about the repository the agent works in; user memory follows the user
// across projects. Scope precedence is carried by ordering (project first),
// never by a score boost.
type Scope uint8

const (
	// ScopeProject is the per-repository tree
	// (~/.qwen/projects/<sanitized git root>/memory in Qwen Code).
	ScopeProject Scope = iota
	// ScopeUser is the per-user tree (~/.qwen/memories in Qwen Code).
	ScopeUser
)

// String returns the scope's name as used in manifests and corpora.
func (s Scope) String() string {
	switch s {
	case ScopeProject:
		return "project"
	case ScopeUser:
		return "user"
	}
	return fmt.Sprintf("Scope(%d)", uint8(s))
}

// ParseScope is the inverse of Scope.String.
func ParseScope(s string) (Scope, error) {
	switch s {
	case "project":
		return ScopeProject, nil
	case "user":
		return ScopeUser, nil
	}
	return 0, fmt.Errorf("%w: %q", ErrUnknownScope, s)
}

// Type is the kind of a topic document, from its required `type`
// frontmatter key.
type Type uint8

const (
	// TypeUser records who the user is and what they prefer.
	TypeUser Type = iota + 1
	// TypeFeedback records corrections and confirmed ways of working.
	TypeFeedback
	// TypeProject records ongoing work, goals, incidents and deadlines.
	TypeProject
	// TypeReference records pointers to external systems.
	TypeReference
)

// Types lists every valid Type in declaration order.
var Types = [...]Type{TypeUser, TypeFeedback, TypeProject, TypeReference}

// String returns the type's frontmatter spelling.
func (t Type) String() string {
	switch t {
	case TypeUser:
		return "user"
	case TypeFeedback:
		return "feedback"
	case TypeProject:
		return "project"
	case TypeReference:
		return "reference"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// ParseType maps a frontmatter `type` value to a Type. Only the four
// spellings of spec §2.4 are accepted, exactly.
func ParseType(s string) (Type, error) {
	switch s {
	case "user":
		return TypeUser, nil
	case "feedback":
		return TypeFeedback, nil
	case "project":
		return TypeProject, nil
	case "reference":
		return TypeReference, nil
	}
	return 0, fmt.Errorf("%w: %q", ErrUnknownType, s)
}

// ID is a document's identity: its absolute, cleaned file path. The same
// relative path under the project and the user root is two documents.
type ID string

// BodyWindow is the number of characters (runes) of a body that a prompt
// surfaces. The scorer reads the whole body a scan keeps (up to ReadLimit
// bytes of file) and weighs matches beyond the window less.
const BodyWindow = 1200

// Document is one parsed topic file. A *Document handed out by a scan is
// immutable: the catalog returns the same pointer for a file that has not
// changed, so callers (the scorer's index) may cache per-pointer data and
// treat a new pointer as a new version.
type Document struct {
	// ID is the absolute cleaned path of the file.
	ID ID
	// RelPath is the path relative to its scope root, with forward
	// slashes, for display in prompts and manifests.
	RelPath string
	// Title is `name`, else `title`, else the type's name.
	Title string
	// Description is the optional `description`.
	Description string
	// Body is the text after the closing `---`, trimmed, CRLF normalised.
	// It holds at least the first BodyWindow runes of the body (more may be
	// present up to the read limit); "_No entries yet._" is stored as "".
	Body string
	// Modified is the file's modification time (used for recency).
	Modified time.Time
	// Size is the file's size in bytes as last seen by stat.
	Size int64
	// Scope is the tree the file was found in.
	Scope Scope
	// Type is the frontmatter `type`.
	Type Type
	// BodyTruncated reports that the file's body continues beyond what
	// Body holds or beyond BodyWindow runes, so a prompt must show a
	// truncation note.
	BodyTruncated bool

	// The three one-byte fields come last so that they share one word: a
	// Document is 120 bytes, not the 136 it took with each of them between
	// two strings (a scan keeps one per topic; decision 0615).
}
