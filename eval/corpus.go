package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/memrecall/memrecall/memory"
)

// Corpus is a labeled evaluation corpus (spec §7.1).
type Corpus struct {
	// Name identifies the corpus in reports.
	Name string `json:"name"`
	// Documents are written as topic files before every run.
	Documents []Document `json:"documents"`
	// Cases are the labeled queries.
	Cases []Case `json:"cases"`
}

// Document is one topic file of a corpus.
type Document struct {
	// ID is the file name without ".md"; unique across both scopes
	// (ignoring case), because cases name documents by id alone.
	ID string `json:"id"`
	// Scope is "project" or "user".
	Scope string `json:"scope"`
	// Type is the frontmatter type: user, feedback, project or reference.
	Type string `json:"type"`
	// Name is the frontmatter name (the title); may be empty.
	Name string `json:"name"`
	// Description is the frontmatter description; may be empty.
	Description string `json:"description"`
	// Body is the text after the frontmatter.
	Body string `json:"body"`
	// Modified is the file's modification time, RFC 3339.
	Modified string `json:"modified"`
}

// Case is one labeled query.
type Case struct {
	// ID names the case in reports and errors.
	ID string `json:"id"`
	// Slice is one of Slices().
	Slice string `json:"slice"`
	// Query is the user's text.
	Query string `json:"query"`
	// Relevant lists the documents a good recall returns; empty marks a
	// no-result case.
	Relevant []string `json:"relevant"`
	// Top, when set, is the document expected first.
	Top string `json:"top,omitempty"`
	// RecentTools feeds the active-tool noise filter.
	RecentTools []string `json:"recent_tools"`
}

// NoResult reports whether the case expects nothing to be recalled.
func (c *Case) NoResult() bool { return len(c.Relevant) == 0 }

// maxIDLen bounds ids so that "<id>.md" is a valid file name everywhere.
const maxIDLen = 120

// safeID is what an id may look like: a portable file name that cannot
// climb out of the scope root or hide as a dot file.
var safeID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Load reads and validates a corpus file. A corpus without a name is named
// after its file.
func Load(path string) (*Corpus, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, err
	}
	if c.Name == "" {
		c.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return c, nil
}

// Parse decodes and validates a corpus. Unknown JSON fields are rejected so
// that a misspelt key ("relevent") is an error rather than a silently
// unlabeled case.
func Parse(data []byte) (*Corpus, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Corpus
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%w: %w%s: %w", ErrCorpus, ErrSyntax, where(data, err), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: %w: data after the corpus object", ErrCorpus, ErrSyntax)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Validate checks the corpus against the rules of spec §7.1 and the ones the
// harness needs to write it as files. The error names the first problem.
func (c *Corpus) Validate() error {
	if len(c.Documents) == 0 {
		return fmt.Errorf("%w: %w: no documents", ErrCorpus, ErrEmpty)
	}
	if len(c.Cases) == 0 {
		return fmt.Errorf("%w: %w: no cases", ErrCorpus, ErrEmpty)
	}
	docs := make(map[string]bool, len(c.Documents))
	folded := make(map[string]string, len(c.Documents))
	for i := range c.Documents {
		d := &c.Documents[i]
		if err := d.validate(i); err != nil {
			return fmt.Errorf("%w: %w", ErrCorpus, err)
		}
		key := strings.ToLower(d.ID)
		if prev, ok := folded[key]; ok {
			return fmt.Errorf("%w: document %q: %w with document %q (ids must be unique across both scopes, ignoring case, because cases name documents by id)",
				ErrCorpus, d.ID, ErrDuplicateID, prev)
		}
		folded[key] = d.ID
		docs[d.ID] = true
	}
	seen := make(map[string]bool, len(c.Cases))
	for i := range c.Cases {
		k := &c.Cases[i]
		if err := k.validate(i, docs); err != nil {
			return fmt.Errorf("%w: %w", ErrCorpus, err)
		}
		if seen[k.ID] {
			return fmt.Errorf("%w: case %q: %w", ErrCorpus, k.ID, ErrDuplicateID)
		}
		seen[k.ID] = true
	}
	return nil
}

// ModTime returns the parsed modification time; Validate guarantees it
// parses.
func (d *Document) ModTime() time.Time {
	t, _ := time.Parse(time.RFC3339, d.Modified)
	return t
}

func (d *Document) validate(i int) error {
	if err := checkID(d.ID); err != nil {
		return fmt.Errorf("document #%d %q: %w", i+1, d.ID, err)
	}
	where := fmt.Sprintf("document %q", d.ID)
	if _, err := memory.ParseScope(d.Scope); err != nil {
		return fmt.Errorf("%s: %w %q (want project or user)", where, ErrBadScope, d.Scope)
	}
	if _, err := memory.ParseType(d.Type); err != nil {
		return fmt.Errorf("%s: %w %q (want user, feedback, project or reference)", where, ErrBadType, d.Type)
	}
	if _, err := time.Parse(time.RFC3339, d.Modified); err != nil {
		return fmt.Errorf("%s: %w %q (want RFC 3339, e.g. 2026-06-01T09:00:00Z)", where, ErrBadTimestamp, d.Modified)
	}
	for _, f := range []struct{ field, text string }{
		{"name", d.Name}, {"description", d.Description},
	} {
		if r, ok := controlRune(f.text, "\n\t"); ok {
			return fmt.Errorf("%s: %w: %s holds control character %U", where, ErrBadText, f.field, r)
		}
	}
	// The body may hold any line structure, but a NUL makes the scanner
	// treat the file as binary.
	if strings.IndexByte(d.Body, 0) >= 0 {
		return fmt.Errorf("%s: %w: body holds a NUL byte", where, ErrBadText)
	}
	return nil
}

func (k *Case) validate(i int, docs map[string]bool) error {
	if k.ID == "" {
		return fmt.Errorf("case #%d: %w: empty id", i+1, ErrBadID)
	}
	where := fmt.Sprintf("case %q", k.ID)
	if !slices.Contains(Slices(), k.Slice) {
		return fmt.Errorf("%s: %w %q (known: %s)", where, ErrUnknownSlice, k.Slice, strings.Join(Slices(), ", "))
	}
	switch {
	case k.Slice == SliceNoResult && len(k.Relevant) > 0:
		return fmt.Errorf("%s: %w: a no-result case lists relevant documents", where, ErrSliceMismatch)
	case k.Slice == SliceSemantic && len(k.Relevant) == 0:
		return fmt.Errorf("%s: %w: a semantic case needs relevant documents", where, ErrSliceMismatch)
	}
	if strings.TrimSpace(k.Query) == "" {
		return fmt.Errorf("%s: %w", where, ErrEmptyQuery)
	}
	for j, id := range k.Relevant {
		if !docs[id] {
			return fmt.Errorf("%s: relevant %q: %w", where, id, ErrUnknownDocument)
		}
		if slices.Contains(k.Relevant[:j], id) {
			return fmt.Errorf("%s: relevant %q: %w in the list", where, id, ErrDuplicateID)
		}
	}
	if k.Top != "" {
		if !docs[k.Top] {
			return fmt.Errorf("%s: top %q: %w", where, k.Top, ErrUnknownDocument)
		}
		if !slices.Contains(k.Relevant, k.Top) {
			return fmt.Errorf("%s: %w: %q", where, ErrBadTop, k.Top)
		}
	}
	return nil
}

// where locates a JSON decoding error as " at line L, column C" when the
// decoder reports an offset.
func where(data []byte, err error) string {
	var off int64
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	default:
		return ""
	}
	off = min(max(off, 0), int64(len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(data[:off], '\n'))
	return fmt.Sprintf(" at line %d, column %d", line, col)
}

// checkID accepts ids that are safe, portable file names once ".md" is
// appended.
func checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty", ErrBadID)
	case len(id) > maxIDLen:
		return fmt.Errorf("%w: longer than %d bytes", ErrBadID, maxIDLen)
	case !safeID.MatchString(id):
		return fmt.Errorf("%w: use letters, digits, '.', '_' and '-' only, starting with a letter or digit", ErrBadID)
	case strings.HasSuffix(strings.ToLower(id), ".md"):
		return fmt.Errorf("%w: the id is the file name without .md", ErrBadID)
	case strings.EqualFold(id, "MEMORY"):
		return fmt.Errorf("%w: MEMORY.md is the index file, never a recall candidate", ErrBadID)
	}
	return nil
}

// controlRune returns the first control character of s not in allowed.
func controlRune(s, allowed string) (rune, bool) {
	for _, r := range s {
		if unicode.IsControl(r) && !strings.ContainsRune(allowed, r) {
			return r, true
		}
	}
	return 0, false
}
