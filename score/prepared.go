package score

import (
	"strings"

	"github.com/memrecall/memrecall/memory"
)

// prepared is what the index keeps per document version besides its
// postings. It is built once per *memory.Document and never changes.
type prepared struct {
	// postings counts the postings the document added, so that evicting it
	// can account for them as stale.
	postings int
	// usageOnly caches the query-independent half of the noise filter;
	// noiseText is kept only when it is true, for the tool-name check.
	usageOnly bool
	noiseText string
}

// docText is a document's scored fields, normalised once and shared by
// tokenisation and the noise filter.
type docText [3]string

// fieldOf maps a docText index to its field bit.
var fieldOf = [3]field{fieldTitle, fieldDescription, fieldBody}

func normalizedText(d *memory.Document) docText {
	return docText{Normalize(d.Title), Normalize(d.Description), Normalize(BodyWindow(d.Body))}
}

// normalizedTextASCII is normalizedText, also reporting that all three
// fields are ASCII (most memory text), which lets scoreDirect use the byte
// loop of scoreASCII. ASCII text normalises by lower-casing alone.
func normalizedTextASCII(d *memory.Document) (docText, bool) {
	t := docText{d.Title, d.Description, BodyWindow(d.Body)}
	ascii := true
	for i, s := range t {
		switch asciiCase(s) {
		case asciiLower:
		case asciiUpper:
			t[i] = strings.ToLower(s)
		default:
			t[i] = Normalize(s)
			ascii = false
		}
	}
	return t, ascii
}

// forEachKey calls fn with every key (see appendKeys) of every token of
// every field, and the field's bit. buf is scratch for the keys of one
// token. Keys repeat; callers merge them. When q is not nil, tokens that
// cannot match it are skipped.
func (t *docText) forEachKey(q *Query, buf *[]string, fn func(key string, f field)) {
	for i, text := range t {
		f := fieldOf[i]
		forEachToken(text, func(tok string) {
			if q != nil && !q.mayMatch(tok) {
				return
			}
			*buf = appendKeys((*buf)[:0], tok)
			for _, k := range *buf {
				fn(k, f)
			}
		})
	}
}

// usageOnly is the query-independent half of the noise filter on
// normalised fields; it returns the filter's text when it holds.
func (t *docText) usageOnly() (string, bool) {
	// Every usage marker contains one of these words, and marker matching
	// keeps letters in place, so a document without any of them cannot be
	// usage-only; most documents stop here without building the text.
	maybe := false
	for _, text := range t {
		for _, w := range [...]string{"usage", "schema", "docs", "failed", "mapping"} {
			if strings.Contains(text, w) {
				maybe = true
			}
		}
	}
	if !maybe {
		return "", false
	}
	text := t[0] + "\n" + t[1] + "\n" + t[2]
	return text, usageOnly(text)
}
