package hook

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDepsStayTiny pins the dependency set of the hook client and of the
// hook-only binary: the standard library and daemon/wire only. A hook
// process must cost its spawn and one round trip, so nothing that parses
// memory, builds scoring tables or talks to a model may be linked.
func TestDepsStayTiny(t *testing.T) {
	// A failing `go list` fails the test: skipping would let the pin go
	// unchecked exactly when the build is broken.
	out, err := exec.Command("go", "list", "-deps", ".", "../cmd/memrecall-hook").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const mod = "github.com/memrecall/memrecall/"
	allowed := map[string]bool{mod + "hook": true, mod + "daemon/wire": true, mod + "cmd/memrecall-hook": true}
	var got []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, mod) && !allowed[p] {
			got = append(got, p)
		}
		if !strings.HasPrefix(p, mod) && strings.Contains(strings.SplitN(p, "/", 2)[0], ".") {
			got = append(got, p) // a third-party module
		}
	}
	if len(got) > 0 {
		t.Fatalf("the hook client links %v; it may only use the standard library and daemon/wire", got)
	}
	if !strings.Contains(string(out), mod+"daemon/wire") {
		t.Fatalf("go list output does not look like a dependency list:\n%s", out)
	}
}
