//go:build unix

// The daemon runs only on Unix (a socket and an flock'd lock), so this
// benchmark, which starts one, is built only there.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/internal/testenv"
)

// BenchmarkHookProcess measures the whole `memrecall hook` process, spawn
// to exit, as an agent runs it: "warm" against a running daemon, "start"
// when it has to start the daemon first (the daemon is stopped, untimed,
// before each iteration), and "warm-hook-binary", the warm case through
// the hook-only binary memrecall-hook. Two floors are measured in the same run: "true",
// the spawn of /bin/true, and "go-empty", a Go program whose main does
// nothing (the Go runtime's own start). The tree has 1,000 topics. p50/p99 are per
// process, in microseconds; answered-% is the share of runs that printed
// memory (the prompt is one topic's title and description, so a run that
// prints nothing ran out of budget or failed).
//
// "start" starts a daemon that finds the snapshot the previous one left
// (the usual first event of a day; the stopped daemon has released the
// runtime directory's lock before the timing starts); "start-nosnap" runs with the snapshot
// off, so the daemon reads and parses every file (from the page cache).
// MEMRECALL_BENCH_PEER=/path/to/memrecall adds "start-peer": the same
// start with another build of memrecall (an older commit), in the same run;
// MEMRECALL_BENCH_PEER_HOOK=/path/to/memrecall-hook adds "warm-hook-peer",
// the warm case through another build of the hook binary. Each cell also
// reports the median CPU time (user+system, from the child's rusage) and
// minor page faults of its processes.
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
	empty := buildEmptyGo(b, tmp)
	project, user, _, err := gentree.Write(filepath.Join(tmp, "tree"), gentree.English, 1000)
	if err != nil {
		b.Fatal(err)
	}
	cfg, _ := json.Marshal(daemon.Config{Roots: map[string]daemon.RootsConfig{"claude": {Project: project, User: user}}})
	cfgPath := filepath.Join(tmp, "config.json")
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		b.Fatal(err)
	}
	dir := testenv.ShortDir(b)
	env := append(os.Environ(), wire.EnvDir+"="+dir, daemon.EnvConfig+"="+cfgPath, "HOME="+tmp)
	stop := func() {
		c := exec.Command(exe, "daemon", "--stop")
		c.Env = env
		c.Run()
		// The daemon removes its socket before it answers --stop, and
		// holds the lock until it has shut down: a hook timed before then
		// would wait for the old daemon's exit, which a first prompt after
		// a quiet night does not (docs/performance.md, fifth round).
		waitLockFree(b, filepath.Join(dir, wire.LockName))
	}
	defer stop()
	gentree.WaitSettled(time.Now()) // past memory's racy window (gentree.Settle)
	prompt, err := topicPrompt(project)
	if err != nil {
		b.Fatal(err)
	}
	pj, _ := json.Marshal(prompt)
	// A new session per process: one session's second identical prompt
	// gets nothing (its documents were delivered), which would measure an
	// empty answer.
	sessions := 0
	event := func() string {
		sessions++
		return `{"session_id":"bench-` + strconv.Itoa(sessions) + `","cwd":"/","hook_event_name":"UserPromptSubmit","prompt":` + string(pj) + `}`
	}
	answered := 0
	spawnEnv := func(b *testing.B, env []string, name string, args ...string) cputime.Proc {
		c := exec.Command(name, args...)
		c.Env = env
		c.Stdin = strings.NewReader(event())
		var out bytes.Buffer
		c.Stdout = &out
		p, err := cputime.Run(c)
		if err != nil {
			b.Fatal(err)
		}
		if strings.Contains(out.String(), "additionalContext") {
			answered++
		}
		return p
	}
	spawn := func(b *testing.B, name string, args ...string) cputime.Proc {
		return spawnEnv(b, env, name, args...)
	}
	measureEnv := func(b *testing.B, env []string, before func(), name string, args ...string) {
		var runs []cputime.Proc
		answered = 0
		for b.Loop() {
			if before != nil {
				b.StopTimer()
				before()
				b.StartTimer()
			}
			runs = append(runs, spawnEnv(b, env, name, args...))
		}
		wall, cpu, faults := procPercentile(runs, 50)
		wall99, _, _ := procPercentile(runs, 99)
		b.ReportMetric(float64(wall.Microseconds()), "p50-µs")
		b.ReportMetric(float64(wall99.Microseconds()), "p99-µs")
		b.ReportMetric(float64(cpu.Microseconds()), "cpu-p50-µs")
		b.ReportMetric(float64(faults), "faults-p50")
		b.ReportMetric(float64(100*answered)/float64(len(runs)), "answered-%")
	}
	measure := func(b *testing.B, before func(), name string, args ...string) {
		measureEnv(b, env, before, name, args...)
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
	if peer := os.Getenv("MEMRECALL_BENCH_PEER_HOOK"); peer != "" {
		b.Run("warm-hook-peer", func(b *testing.B) { measure(b, nil, peer, "--agent", "claude") })
	}
	b.Run("start", func(b *testing.B) { measure(b, stop, exe, "hook", "--agent", "claude") })
	b.Run("start-nosnap", func(b *testing.B) {
		measureEnv(b, append(env[:len(env):len(env)], "MEMRECALL_SNAPSHOT=off"), stop, exe, "hook", "--agent", "claude")
	})
	if peer := os.Getenv("MEMRECALL_BENCH_PEER"); peer != "" {
		b.Run("start-peer", func(b *testing.B) { measure(b, stop, peer, "hook", "--agent", "claude") })
	}
}

// topicPrompt is the title and description of the first topic under
// root: a prompt the tree surely has memory for.
func topicPrompt(root string) (string, error) {
	ents, err := os.ReadDir(filepath.Join(root, "d000"))
	if err != nil || len(ents) == 0 {
		return "", fmt.Errorf("no topic: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(root, "d000", ents[0].Name()))
	if err != nil {
		return "", err
	}
	var words []string
	for _, line := range strings.Split(string(data), "\n") {
		for _, k := range []string{"name: ", "description: "} {
			if v, ok := strings.CutPrefix(line, k); ok {
				words = append(words, v)
			}
		}
	}
	return strings.Join(words, " "), nil
}
