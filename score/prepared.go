package score

import (
	"strings"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// prepared is what the index keeps, besides its postings and their count
// (slot.postings), of a document version whose noise filter's
// query-independent half holds (usage-only): its text, for the tool-name
// check. Other documents, nearly all, have none (slot.prep is nil), so a
// fresh engine's frozen install allocates and touches nothing per
// document for it. It is built once per *memory.Document and never
// changes.
type prepared struct {
	noiseText string
}

// docText is a document's scored fields, normalised once and shared by
// tokenisation and the noise filter: title, description, the body window
// and the rest of the body (see fieldFar).
type docText [4]string

// fieldOf maps a docText index to its field bit.
var fieldOf = [4]field{fieldTitle, fieldDescription, fieldBody, fieldFar}

// splitBody returns the body window and the rest of the body that a scan
// reads: at most memory.ReadLimit bytes of body in all, cut on a rune
// boundary, so that a document's cost is bounded whatever its caller
// hands in.
func splitBody(body string) (window, far string) {
	window, far, _ = splitBodyUnchecked(body, true)
	return window, far
}

// splitBodyUnchecked is splitBody; with validate false, a body whose
// window is the whole body if it is valid UTF-8 is returned as the window
// without that check, and unchecked says so: the caller must then either
// find the body valid or call splitBody (see bodyWindow).
func splitBodyUnchecked(body string, validate bool) (window, far string, unchecked bool) {
	w, unchecked := bodyWindow(body, validate)
	end := min(len(body), max(memory.ReadLimit, len(w)))
	for end < len(body) && end > len(w) && !utf8.RuneStart(body[end]) {
		end--
	}
	return w, body[len(w):end], unchecked
}

func normalizedText(d *memory.Document) docText {
	w, far := splitBody(d.Body)
	return docText{Normalize(d.Title), Normalize(d.Description), Normalize(w), Normalize(far)}
}

// normalizedTextASCII is normalizedText, also reporting that all fields
// are ASCII (most memory text), which lets scoreDirect use the byte loop
// of scoreASCII. ASCII text normalises by lower-casing alone.
func normalizedTextASCII(d *memory.Document) (docText, bool) {
	w, far := splitBody(d.Body)
	t := docText{d.Title, d.Description, w, far}
	ascii := true
	for i, s := range t {
		switch asciiCase(s) {
		case asciiLower:
		case asciiUpper:
			t[i] = lowerASCII(s)
		default:
			t[i] = Normalize(s)
			ascii = false
		}
	}
	return t, ascii
}

// forEachKey calls fn with every key (see appendKeys) of every token of
// every field, and the field's bit; for a word token whose keys fold to
// something else (see fold), also with each folded key and the field's
// folded bit. buf is scratch for the keys of one token. Keys repeat;
// callers merge them. When q is not nil, tokens that cannot match it are
// skipped.
func (t *docText) forEachKey(q *Query, buf *[]string, fn func(key string, f field)) {
	for i, text := range t {
		forEachFieldKey(q, text, fieldOf[i], buf, fn)
	}
}

// forEachFieldKey is forEachKey for one field's normalised text.
func forEachFieldKey(q *Query, text string, f field, buf *[]string, fn func(key string, f field)) {
	forEachTokenKind(text, false, func(tok string, word bool) {
		if !word {
			// A CJK or Thai-like n-gram is its own only key, at least
			// six bytes long and never folded: the prefilter is its head
			// alone.
			if q == nil || q.headMayMatch(tok) {
				fn(tok, f)
			}
			return
		}
		n, ok := wordKeys(q, tok, buf)
		if !ok {
			return
		}
		for _, k := range (*buf)[:n] {
			fn(k, f)
		}
		for _, k := range (*buf)[n:] {
			fn(k, f<<foldShift)
		}
	})
}

// wordKeys puts in *buf the keys (appendKeys) of word token tok, the
// first n of them exact and the rest folded (see fold); ok is false when
// q is not nil and its prefilter says no key of tok can match it, and
// then *buf is not set. It is the per-token work of forEachKey and of
// direct scoring (applyWord).
func wordKeys(q *Query, tok string, buf *[]string) (n int, ok bool) {
	// Decided once per token: whether its keys may fold, for the filter
	// and for the folded keys below. A key is made of the token's
	// characters (and an ASCII e), so when the token does not fold, none
	// of its keys does.
	folds := needsFold(tok) // false for ASCII, in the same pass
	if !exactKeys(q, tok, folds, buf) {
		return 0, false
	}
	n = len(*buf)
	if folds {
		*buf = appendFoldedKeys(*buf, (*buf)[:n])
	}
	return n, true
}

// exactKeys is wordKeys without the folded keys, for a caller that knows
// folds, needsFold(tok): it puts tok's keys in *buf and reports true, or
// false when q's prefilter rules them all out.
func exactKeys(q *Query, tok string, folds bool, buf *[]string) bool {
	if q != nil && !q.mayMatchFolding(tok, folds) {
		return false
	}
	*buf = appendKeys((*buf)[:0], tok)
	return true
}

// appendFoldedKeys appends to dst the folded form of each key of keys
// that folding changes, and for a key with an umlaut its German
// transliteration (germanFold) too.
func appendFoldedKeys(dst, keys []string) []string {
	for _, k := range keys {
		fk := fold(k)
		if fk != k {
			dst = append(dst, fk)
		}
		if g := germanFold(k); g != "" && g != fk {
			dst = append(dst, g)
		}
	}
	return dst
}

// usageOnly is the query-independent half of the noise filter on
// normalised fields; it returns the filter's text when it holds. It reads
// the same text as noiseText: title, description and the whole body the
// scan keeps, window and rest joined.
func (t *docText) usageOnly() (string, bool) {
	if !t.mayBeUsage() {
		return "", false
	}
	text := t.filterText()
	return text, usageOnly(text)
}

// filterText is the text the noise filter reads: title, description and
// the whole body, the window and the rest joined again, so that a word or
// a tool name that straddles the window's end is read whole.
func (t *docText) filterText() string {
	return t[0] + "\n" + t[1] + "\n" + t[2] + t[3]
}

// usageHints are words of which every usage marker (and a usage title)
// contains one.
var usageHints = [...]string{"usage", "schema", "docs", "failed", "mapping", "call"}

// mayBeUsage reports whether the fields hold one of usageHints, also
// across the join of the body's window and its rest. Marker matching keeps
// letters in place, so a document without any of them cannot be
// usage-only; most documents stop here without building the filter's
// text.
func (t *docText) mayBeUsage() bool {
	for _, text := range t {
		for _, w := range usageHints {
			if strings.Contains(text, w) {
				return true
			}
		}
	}
	if t[3] == "" {
		return false
	}
	// A hint cut by the window's end: the last and first few bytes of the
	// two parts, enough for the longest hint less one byte each side.
	const n = len("mapping") - 1
	seam := t[2][len(t[2])-min(n, len(t[2])):] + t[3][:min(n, len(t[3]))]
	for _, w := range usageHints {
		if strings.Contains(seam, w) {
			return true
		}
	}
	return false
}
