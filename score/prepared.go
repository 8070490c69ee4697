package score

import (
	"sort"

	"github.com/memrecall/memrecall/memory"
)

// prepared is what the index keeps per document version: the query tokens
// each field answers to and what the noise filter needs. It is built once
// per *memory.Document and never changes.
type prepared struct {
	// keys are the distinct query tokens that match some field token, and
	// masks[i] the fields in which keys[i] matches.
	keys  []string
	masks []field
	// usageOnly caches the query-independent half of the noise filter;
	// noiseText is kept only when it is true, for the tool-name check.
	usageOnly bool
	noiseText string
	// modSec and modNsec are the modification time as sort keys.
	modSec  int64
	modNsec int32
}

func prepare(d *memory.Document) *prepared {
	acc := make(map[string]field)
	var buf []string
	add := func(text string, f field) {
		forEachToken(Normalize(text), func(tok string) {
			buf = appendKeys(buf[:0], tok)
			for _, k := range buf {
				acc[k] |= f
			}
		})
	}
	add(d.Title, fieldTitle)
	add(d.Description, fieldDescription)
	add(BodyWindow(d.Body), fieldBody)

	p := &prepared{
		keys:    make([]string, 0, len(acc)),
		modSec:  d.Modified.Unix(),
		modNsec: int32(d.Modified.Nanosecond()),
	}
	for k := range acc {
		p.keys = append(p.keys, k)
	}
	// Sorted keys make index construction independent of map order.
	sort.Strings(p.keys)
	p.masks = make([]field, len(p.keys))
	for i, k := range p.keys {
		p.masks[i] = acc[k]
	}
	text := noiseText(d)
	if usageOnly(text) {
		p.usageOnly = true
		p.noiseText = text
	}
	return p
}
