package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/memrecall/memrecall/internal/cputime"
)

// startUpImports are the packages BenchmarkStartUp links one at a time:
// the third-party and standard packages behind most of what `memrecall`
// pays at start before its command runs, and memrecall's own packages
// that pull them in (docs/decisions/0810-fresh-process-start.md).
// Each has the short name its metrics carry.
var startUpImports = []struct{ name, path string }{
	{"unicode", "unicode"},
	{"regexp", "regexp"},
	{"yaml", "go.yaml.in/yaml/v3"},
	{"template", "text/template"},
	{"tls", "crypto/tls"},
	{"http", "net/http"},
	{"memory", "github.com/memrecall/memrecall/memory"},
	{"fsm", "github.com/memrecall/memrecall/fsm"},
	{"model", "github.com/memrecall/memrecall/model"},
	{"recall", "github.com/memrecall/memrecall/recall"},
}

// BenchmarkStartUp times whole processes, spawn to exit, whose main does
// nothing: the empty Go program (the floor), one per package of
// startUpImports that only imports it (so the process runs that package's
// initialisers and those of everything it imports, and touches their
// pages), and `memrecall -h` (every package memrecall links, no command).
// Each iteration spawns every program once, in an order that rotates, so
// all of them share the machine's moments. Reported, medians over the
// iterations: empty-cpu-ms and empty-faults (the floor's CPU, user +
// system of the child, and minor page faults), and for memrecall -h
// ("h") and each import its -cpu-x (CPU over the empty program's) and
// -faults. All are built as the README installs memrecall
// (CGO_ENABLED=0).
//
//	go test -run '^$' -bench StartUp -benchtime 30x ./cmd/memrecall
func BenchmarkStartUp(b *testing.B) {
	tmp := b.TempDir()
	exe, empty := buildFresh(b, tmp)
	type prog struct {
		name string
		args []string
	}
	progs := []prog{{"empty", []string{empty}}, {"h", []string{exe, "-h"}}}
	for i, imp := range startUpImports {
		dir := filepath.Join(tmp, fmt.Sprintf("imp%d", i))
		if err := os.Mkdir(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		src := filepath.Join(dir, "main.go")
		if err := os.WriteFile(src, []byte("package main\n\nimport _ \""+imp.path+"\"\n\nfunc main() {}\n"), 0o600); err != nil {
			b.Fatal(err)
		}
		out := filepath.Join(dir, "imp")
		// Built from this package's directory, so that the module's
		// requirements resolve the imports.
		build := exec.Command("go", "build", "-o", out, src)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if o, err := build.CombinedOutput(); err != nil {
			b.Fatalf("build %s: %v\n%s", imp.path, err, o)
		}
		progs = append(progs, prog{imp.name, []string{out}})
	}
	times := make([][]cputime.Proc, len(progs))
	r := 0
	for b.Loop() {
		for i := range progs {
			j := (i + r) % len(progs)
			p, err := cputime.Run(exec.Command(progs[j].args[0], progs[j].args[1:]...))
			if err != nil {
				b.Fatal(err)
			}
			times[j] = append(times[j], p)
		}
		r++
	}
	_, emptyCPU, emptyFaults := medianProc(times[0])
	b.ReportMetric(emptyCPU, "empty-cpu-ms")
	b.ReportMetric(emptyFaults, "empty-faults")
	for i, p := range progs[1:] {
		_, cpu, faults := medianProc(times[i+1])
		if emptyCPU > 0 {
			b.ReportMetric(cpu/emptyCPU, p.name+"-cpu-x")
		}
		b.ReportMetric(faults, p.name+"-faults")
	}
}
