package hook

import (
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
	// CGO_ENABLED=1, as on a machine with a C compiler: then net would
	// bring runtime/cgo with it, and the check below sees either.
	cmd := exec.Command("go", "list", "-deps", ".", "../cmd/memrecall-hook")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const mod = "github.com/memrecall/memrecall/"
	allowed := map[string]bool{mod + "hook": true, mod + "daemon/wire": true, mod + "cmd/memrecall-hook": true}
	var got []string
	for _, p := range strings.Fields(string(out)) {
		if p == "net" || p == "runtime/cgo" {
			// net makes a default build link cgo and the C library, and
			// so a dynamically linked hook binary (decision 0820).
			got = append(got, p)
		}
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

// TestHookBinaryIsStatic builds the hook binary as `go build` does by
// default on a machine with a C compiler, cgo enabled, and fails if the
// executable asks for a dynamic loader: every agent event starts it, and
// dynamic linking cost it about a third of its start-up (decision 0820).
// It sets CGO_ENABLED=1 itself, so a CGO_ENABLED=0 in the environment
// cannot make it pass vacuously; where no C compiler is found it skips,
// saying so (the build could not link cgo anyway, and TestDepsStayTiny's
// package check still holds).
func TestHookBinaryIsStatic(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ELF check on Linux only")
	}
	if testing.Short() {
		t.Skip("builds a binary")
	}
	cc, err := cCompiler()
	if err != nil {
		t.Skipf("no C compiler, so no build of this machine can link cgo: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "memrecall-hook")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/memrecall-hook")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "CC="+cc)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatalf("the hook binary is dynamically linked (it has a PT_INTERP program header)")
		}
	}
	if len(f.Progs) == 0 {
		t.Fatalf("no program headers: not an executable")
	}
}

// cCompiler returns the C compiler a cgo build would use (`go env CC`,
// whose first word is the program), or an error if it is not installed.
func cCompiler() (string, error) {
	out, err := exec.Command("go", "env", "CC").Output()
	if err != nil {
		return "", fmt.Errorf("go env CC: %w", err)
	}
	cc := strings.TrimSpace(string(out))
	fields := strings.Fields(cc)
	if len(fields) == 0 {
		return "", errors.New("go env CC is empty")
	}
	if _, err := exec.LookPath(fields[0]); err != nil {
		return "", err
	}
	return cc, nil
}
