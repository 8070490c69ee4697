package hook_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/hook"
	"github.com/memrecall/memrecall/internal/testenv"
)

var rewrite = flag.Bool("rewrite", false, "rewrite testdata/*.golden")

// saved is the modification time of every copied memory file, and clock
// the daemon's wall clock: ages read "saved 3 days ago" on any day.
var (
	saved = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	clock = func() time.Time { return saved.AddDate(0, 0, 3) }
)

// tree copies the shipped example project memory, every file saved at
// the same time, so golden outputs are stable.
func tree(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "examples", "memory", "project")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join(src, e.Name())); err == nil && !e.IsDir() {
			p := filepath.Join(dst, e.Name())
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, saved, saved); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dst
}

func options(t testing.TB) daemon.Options {
	r := daemon.RootsConfig{Project: tree(t), User: t.TempDir()}
	return daemon.Options{Dir: testenv.ShortDir(t), Now: clock, Config: daemon.Config{Roots: map[string]daemon.RootsConfig{"claude": r, "gemini": r, "qwen": r}}}
}

// starter returns a Start function that runs an in-process daemon, as the
// command's detached `memrecall daemon --lock-fd` would (adopting the
// hook's lock), and stops it with the test. starts counts its calls.
func starter(t testing.TB, opts daemon.Options) func(*os.File) error {
	s, _ := counting(t, opts)
	return s
}

func counting(t testing.TB, opts daemon.Options) (func(*os.File) error, *atomic.Int32) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var starts atomic.Int32
	t.Cleanup(func() { cancel(); wg.Wait() })
	return func(lock *os.File) error {
		starts.Add(1)
		o := opts
		o.Lock = lock
		s, err := daemon.Listen(o)
		if errors.Is(err, daemon.ErrRunning) {
			return nil // another hook's daemon won
		}
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() { defer wg.Done(); s.Serve(ctx) }()
		return nil
	}, &starts
}

// warm opens a session through a SessionStart hook and waits, in a
// bounded loop, until the daemon has scanned the corpus, so the test's
// queries do not race the cold scan against the engine's initial ceiling.
func warm(t testing.TB, dir, agentName string, start func(*os.File) error) {
	t.Helper()
	run(t, dir, agentName, `{"session_id":"warm-up","cwd":"/p","hook_event_name":"SessionStart","source":"startup"}`, start)
	for range 10_000 {
		resp, err := daemon.Ask(dir, wire.Request{Version: wire.Version, Op: wire.OpStatus}, 10*time.Second)
		if err == nil && len(resp.Status.Corpora) > 0 && resp.Status.Corpora[0].Scanned {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("corpus never scanned")
}

func run(t testing.TB, dir, agentName, stdin string, start func(*os.File) error) (string, error) {
	var out bytes.Buffer
	err := hook.Run(hook.Config{
		Agent: agentName, Stdin: strings.NewReader(stdin), Stdout: &out, Dir: dir,
		Environ: []string{"HOME=/nonexistent-home"}, Start: start,
		Budget: time.Minute, // generous: -race on a loaded machine; the budget itself is not under test
	})
	return out.String(), err
}

const query = `{"session_id":"s1","cwd":"/nowhere","hook_event_name":"UserPromptSubmit","prompt":"deploy checklist for billing-api"}`

func TestBadInputPrintsNothing(t *testing.T) {
	opts := options(t)
	start := starter(t, opts)
	warm(t, opts.Dir, "claude", start)
	tests := map[string]string{
		"empty":      "",
		"malformed":  `{"session_id":`,
		"truncated":  query[:len(query)-10],
		"not json":   "hello",
		"10 MB":      `{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"` + strings.Repeat("deploy ", 10<<20/7) + `"}`,
		"no session": `{"hook_event_name":"UserPromptSubmit","prompt":"deploy"}`,
		"array":      `[1,2]`,
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			out, _ := run(t, opts.Dir, "claude", in, start)
			if out != "" {
				t.Errorf("printed %q", out)
			}
		})
	}
	out, err := run(t, opts.Dir, "claude", query, start)
	if err != nil || out == "" {
		t.Fatalf("good event after bad ones: %q, %v", out, err)
	}
}

func TestNoDaemonPrintsNothing(t *testing.T) {
	out, err := run(t, testenv.ShortDir(t), "claude", query, nil)
	if out != "" || !errors.Is(err, hook.ErrNoDaemon) {
		t.Fatalf("no daemon: %q, %v; want nothing and ErrNoDaemon", out, err)
	}
}

func TestUnknownAgentPrintsNothing(t *testing.T) {
	opts := options(t)
	out, _ := run(t, opts.Dir, "codex", query, starter(t, opts))
	if out != "" {
		t.Fatalf("printed %q for an unknown agent", out)
	}
}

// TestRacingHooksStartOneDaemon: hooks of several sessions find no daemon
// at the same time, on a cold corpus. Exactly one of them starts a daemon
// (the one that takes the runtime directory's lock, which the daemon then
// keeps); the others wait for its socket. Every hook gets its memory.
func TestRacingHooksStartOneDaemon(t *testing.T) {
	opts := options(t)
	start, starts := counting(t, opts)
	const n = 8
	outs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := strings.Replace(query, `"s1"`, `"race-`+string(rune('a'+i))+`"`, 1)
			<-gate
			outs[i], errs[i] = run(t, opts.Dir, "claude", ev, start)
		}()
	}
	close(gate)
	wg.Wait()
	for i := range n {
		if errs[i] != nil || !strings.Contains(outs[i], "deploy-checklist.md") {
			t.Errorf("hook %d: %q, %v; want its memory", i, outs[i], errs[i])
		}
	}
	if got := starts.Load(); got != 1 {
		t.Errorf("%d hooks started a daemon, want exactly 1", got)
	}
	resp, err := daemon.Ask(opts.Dir, wire.Request{Version: wire.Version, Op: wire.OpStatus}, 10*time.Second)
	if err != nil || len(resp.Status.Sessions) != n {
		t.Fatalf("status after race: %+v, %v; want %d sessions in one daemon", resp.Status, err, n)
	}
}

// TestNewerHookReplacesDaemon: a hook of a newer version meets an older
// daemon; the daemon gives way, the hook starts its own and is answered.
func TestNewerHookReplacesDaemon(t *testing.T) {
	opts := options(t)
	if err := starter(t, opts)(nil); err != nil { // the old daemon
		t.Fatal(err)
	}
	newer := opts
	newer.Version = wire.Version + 1
	var out bytes.Buffer
	err := hook.Run(hook.Config{
		Agent: "claude", Stdin: strings.NewReader(query), Stdout: &out, Dir: opts.Dir,
		Environ: []string{"HOME=/h"}, Start: starter(t, newer), Budget: time.Minute, Version: wire.Version + 1,
	})
	if err != nil {
		t.Fatalf("newer hook: %q, %v", out.String(), err)
	}
	resp, err := daemon.Ask(opts.Dir, wire.Request{Version: wire.Version + 1, Op: wire.OpStatus}, 10*time.Second)
	if err != nil || resp.Status.Version != wire.Version+1 {
		t.Fatalf("daemon after replacement: %+v, %v; want version %d", resp, err, wire.Version+1)
	}
}

// TestGoldenTurns runs one turn of each agent through the real daemon and
// compares what the hook prints at every event with testdata/<agent>.golden.
func TestGoldenTurns(t *testing.T) {
	turns := map[string][]string{
		"claude": {
			`{"session_id":"c1","cwd":"/p","hook_event_name":"SessionStart","source":"startup"}`,
			`{"session_id":"c1","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"deploy checklist for billing-api"}`,
			`{"session_id":"c1","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"x"}}`,
			`{"session_id":"c1","cwd":"/p","hook_event_name":"Stop","stop_hook_active":false}`,
			`{"session_id":"c1","cwd":"/p","hook_event_name":"SessionEnd","reason":"other"}`,
		},
		"qwen": {
			`{"session_id":"q1","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"which grafana dashboards do we use?"}`,
			`{"session_id":"q1","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":""}`,
			`{"session_id":"q1","cwd":"/p","hook_event_name":"PostToolBatch","tool_calls":[{"tool_name":"read_file"}]}`,
			`{"session_id":"q1","cwd":"/p","hook_event_name":"Stop"}`,
		},
		"gemini": {
			`{"session_id":"g1","cwd":"/p","hook_event_name":"BeforeAgent","prompt":"write the commit message"}`,
			`{"session_id":"g1","cwd":"/p","hook_event_name":"AfterTool","tool_name":"run_shell_command"}`,
			`{"session_id":"g1","cwd":"/p","hook_event_name":"AfterAgent","prompt_response":"ok"}`,
		},
	}
	for name, events := range turns {
		t.Run(name, func(t *testing.T) {
			opts := options(t)
			start := starter(t, opts)
			warm(t, opts.Dir, name, start)
			var b strings.Builder
			for _, ev := range events {
				out, _ := run(t, opts.Dir, name, ev, start)
				b.WriteString("<<< " + ev + "\n>>> " + out)
				if !strings.HasSuffix(out, "\n") {
					b.WriteString("(nothing)\n")
				}
			}
			path := filepath.Join("testdata", name+".golden")
			if *rewrite {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -rewrite)", err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// TestStdinNeverClosed: an agent that never closes the hook's stdin does
// not hold the hook past its budget; it gives up with ErrTimeout.
func TestStdinNeverClosed(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(query)) // the event, but no EOF
	var out bytes.Buffer
	err := hook.Run(hook.Config{Agent: "claude", Stdin: r, Stdout: &out, Dir: testenv.ShortDir(t), Budget: 20 * time.Millisecond})
	if !errors.Is(err, hook.ErrTimeout) || out.Len() != 0 {
		t.Fatalf("stdin never closed: %q, %v; want nothing and ErrTimeout", out.String(), err)
	}
}
