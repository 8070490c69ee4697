package eval

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse: any bytes give either a corpus that validates and survives a
// JSON round trip unchanged, or a one-line error wrapping ErrCorpus; never
// a panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"name":"x","documents":[{"id":"a","scope":"user","type":"user","name":"","description":"","body":"b","modified":"2026-01-01T00:00:00Z"}],"cases":[{"id":"c","slice":"no-result","query":"q","relevant":[]}]}`))
	f.Add([]byte(`{"documents":[{"id":"../x"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			if !errors.Is(err, ErrCorpus) {
				t.Fatalf("error %v does not wrap ErrCorpus", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not one line", err)
			}
			return
		}
		again, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		c2, err := Parse(again)
		if err != nil {
			t.Fatalf("a parsed corpus does not parse again: %v", err)
		}
		if d := cmp.Diff(c, c2); d != "" {
			t.Fatalf("round trip (-first +second):\n%s", d)
		}
	})
}
