package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/internal/gentree"
)

// BenchmarkHookProcess measures the whole `memrecall hook` process, spawn
// to exit, as an agent runs it: "warm" against a running daemon, "start"
// when it has to start the daemon first (the daemon is stopped, untimed,
// before each iteration), and "warm-hook-binary", the warm case through
// the hook-only binary memrecall-hook. Two floors are measured in the same run: "true",
// the spawn of /bin/true, and "go-empty", a Go program whose main does
// nothing (the Go runtime's own start). The tree has 1,000 topics. p50/p99 are per
// process, in microseconds.
//
//	go test -run XXX -bench HookProcess -benchtime 100x ./cmd/memrecall
func BenchmarkHookProcess(b *testing.B) {
	tmp := b.TempDir()
	exe := filepath.Join(tmp, "memrecall")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	hookExe := filepath.Join(tmp, "memrecall-hook")
	if out, err := exec.Command("go", "build", "-o", hookExe, "../memrecall-hook").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	empty := filepath.Join(tmp, "empty")
	if err := os.WriteFile(filepath.Join(tmp, "empty.go"), []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", empty, "empty.go")
	build.Dir = tmp
	build.Env = append(os.Environ(), "GO111MODULE=off")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build empty: %v\n%s", err, out)
	}
	project, user, _, err := gentree.Write(filepath.Join(tmp, "tree"), gentree.English, 1000)
	if err != nil {
		b.Fatal(err)
	}
	cfg, _ := json.Marshal(daemon.Config{Roots: map[string]daemon.RootsConfig{"claude": {Project: project, User: user}}})
	cfgPath := filepath.Join(tmp, "config.json")
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		b.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "mrb")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	env := append(os.Environ(), wire.EnvDir+"="+dir, daemon.EnvConfig+"="+cfgPath, "HOME="+tmp)
	stop := func() {
		c := exec.Command(exe, "daemon", "--stop")
		c.Env = env
		c.Run()
		// The daemon removes its socket before it answers --stop.
	}
	defer stop()
	time.Sleep(2100 * time.Millisecond) // past memory's racy window (see daemon.BenchmarkRoundTrip)
	event := `{"session_id":"bench","cwd":"/","hook_event_name":"UserPromptSubmit","prompt":"deploy release checklist"}`
	spawn := func(b *testing.B, name string, args ...string) time.Duration {
		c := exec.Command(name, args...)
		c.Env = env
		c.Stdin = strings.NewReader(event)
		var out bytes.Buffer
		c.Stdout = &out
		start := time.Now()
		if err := c.Run(); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		return time.Since(start)
	}
	measure := func(b *testing.B, before func(), name string, args ...string) {
		lat := make([]time.Duration, 0, 256)
		for b.Loop() {
			if before != nil {
				b.StopTimer()
				before()
				b.StartTimer()
			}
			lat = append(lat, spawn(b, name, args...))
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
	b.Run("true", func(b *testing.B) { measure(b, nil, "/bin/true") })
	b.Run("go-empty", func(b *testing.B) { measure(b, nil, empty) })
	b.Run("warm", func(b *testing.B) {
		spawn(b, exe, "hook", "--agent", "claude") // starts and warms the daemon
		if _, err := daemon.Ask(dir, wire.Request{Version: wire.Version, Op: wire.OpStatus}, 10*time.Second); err != nil {
			b.Fatalf("no daemon after the first hook: %v", err)
		}
		measure(b, nil, exe, "hook", "--agent", "claude")
	})
	b.Run("warm-hook-binary", func(b *testing.B) { measure(b, nil, hookExe, "--agent", "claude") })
	b.Run("start", func(b *testing.B) { measure(b, stop, exe, "hook", "--agent", "claude") })
}
