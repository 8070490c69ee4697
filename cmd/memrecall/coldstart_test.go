package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/hook"
	"github.com/memrecall/memrecall/internal/testenv"
)

// envAsCommand makes the test binary run as the memrecall command (see
// TestMain).
const envAsCommand = "MEMRECALL_TEST_AS_COMMAND"

// coldEnv is the environment of hook processes on a fresh runtime
// directory whose config points every agent at the example memory; the
// daemon they start is this test binary as `memrecall daemon`.
func coldEnv(t *testing.T) (env []string, dir string) {
	t.Helper()
	tmp := t.TempDir()
	r := daemon.RootsConfig{Project: abs(t, "../../examples/memory/project"), User: abs(t, "../../examples/memory/user")}
	roots, _ := json.Marshal(map[string]daemon.RootsConfig{"claude": r})
	cfg := []byte(`{"idle_exit": "1m", "roots": ` + string(roots) + `}`)
	cfgPath := filepath.Join(tmp, "config.json")
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	dir = testenv.ShortDir(t)
	env = append(os.Environ(), envAsCommand+"=1", wire.EnvDir+"="+dir, daemon.EnvConfig+"="+cfgPath,
		"HOME="+tmp, envSnapshot+"=off",
		// Generous: a loaded machine under -race; the budget is not what
		// is tested here.
		hook.EnvBudget+"=9s")
	t.Cleanup(func() {
		c := exec.Command(os.Args[0], "daemon", "--stop")
		c.Env = env
		c.Run()
	})
	return env, dir
}

func abs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestHookProcessesColdStartOneDaemon: several hook processes find no
// daemon at the same moment. The one that takes the runtime directory's
// lock starts `memrecall daemon --lock-fd 3` and hands the lock over; the
// others wait for its socket. Every hook prints its memory, and one daemon
// holds every session.
func TestHookProcessesColdStartOneDaemon(t *testing.T) {
	env, dir := coldEnv(t)
	const n = 6
	outs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := exec.Command(os.Args[0], "hook", "--agent", "claude")
			c.Env = env
			c.Stdin = strings.NewReader(`{"session_id":"cold-` + string(rune('a'+i)) + `","cwd":"/","hook_event_name":"UserPromptSubmit","prompt":"deploy checklist for billing-api"}`)
			var out bytes.Buffer
			c.Stdout = &out
			errs[i] = c.Run()
			outs[i] = out.String()
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || !strings.Contains(outs[i], "deploy-checklist.md") {
			t.Errorf("hook %d: %v, printed %q; want its memory", i, errs[i], outs[i])
		}
	}
	resp, err := daemon.Ask(dir, wire.Request{Version: wire.Version, Op: wire.OpStatus}, 10*time.Second)
	if err != nil || len(resp.Status.Sessions) != n {
		t.Fatalf("status: %+v, %v; want one daemon with %d sessions", resp.Status, err, n)
	}
}
