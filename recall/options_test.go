package recall

import (
	"reflect"
	"testing"
)

// Options is the public configuration and holds nothing else: a switch
// that only tests or benchmarks use goes to newEngine, not into an
// unexported field of Options (where a host's Options value would carry it
// unseen, and copies of Options would pass it on).
func TestOptionsAreAllExported(t *testing.T) {
	typ := reflect.TypeFor[Options]()
	for i := range typ.NumField() {
		if f := typ.Field(i); !f.IsExported() {
			t.Errorf("Options.%s is unexported: Options is public configuration only", f.Name)
		}
	}
}
