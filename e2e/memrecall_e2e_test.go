//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memrecall/memrecall/agent"
	"github.com/memrecall/memrecall/e2e/fakemodel"
)

// binary is the memrecall command and the memrecall-hook binary beside
// it, as the README installs them, built once per test binary (or
// MEMRECALL_E2E_BIN, with memrecall-hook in the same directory). With
// memrecall-hook next to memrecall, `memrecall install` writes it into
// the agent's settings, so the agents run the hook binary users run, and
// it starts the daemon from the memrecall beside it.
type binary struct {
	once sync.Once
	path string
	hook string
	// built is the directory this test binary built them in ("" for
	// MEMRECALL_E2E_BIN), removed by TestMain.
	built string
	err   error
}

// mrBin is the test binary's one build of memrecall. Tests only read it
// after its once has run.
var mrBin binary

// memrecallBin builds memrecall and memrecall-hook once, as the README's
// install line does, and reports their paths.
func memrecallBin(t *testing.T) *binary {
	t.Helper()
	mrBin.once.Do(func() {
		mrBin.path = os.Getenv("MEMRECALL_E2E_BIN")
		if mrBin.path != "" {
			mrBin.hook = filepath.Join(filepath.Dir(mrBin.path), "memrecall-hook")
			if _, err := os.Stat(mrBin.hook); err != nil {
				mrBin.err = fmt.Errorf("MEMRECALL_E2E_BIN: the hook binary must sit next to it, as the README installs both: %w", err)
			}
			return
		}
		dir, err := os.MkdirTemp("", "memrecall-e2e-bin")
		if err != nil {
			mrBin.err = err
			return
		}
		mrBin.built = dir
		mrBin.path = filepath.Join(dir, "memrecall")
		mrBin.hook = filepath.Join(dir, "memrecall-hook")
		// The README's `CGO_ENABLED=0 go install ./cmd/memrecall
		// ./cmd/memrecall-hook`, into dir.
		cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "./cmd/memrecall", "./cmd/memrecall-hook")
		cmd.Dir = repoRoot(t)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			mrBin.err = &buildError{out: string(out), err: err}
			return
		}
	})
	if mrBin.err != nil {
		t.Fatalf("building memrecall: %v", mrBin.err)
	}
	return &mrBin
}

// TestMain removes the binaries memrecallBin built once every test has
// run: each run of the suite otherwise leaves two binaries (12 MB) in the
// temporary directory. A daemon still running from them (the tests stop
// theirs) keeps its mapped file.
func TestMain(m *testing.M) {
	code := m.Run()
	if mrBin.built != "" {
		os.RemoveAll(mrBin.built)
	}
	os.Exit(code)
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// memrecallSetup is memrecall wired into one world: the hook installed in
// the agent's settings, the daemon's runtime directory, its config with a
// fake selector.
type memrecallSetup struct {
	// Env is what the agent's runs need.
	Env []string
	// Selector is the fake selector server.
	Selector *fakemodel.Server
	// Runtime is the daemon's socket directory.
	Runtime string
	bin     string
	home    string
}

// Close stops the daemon of this setup and the fake selector.
func (m *memrecallSetup) Close() {
	cmd := exec.Command(m.bin, "daemon", "--stop")
	cmd.Env = append([]string{"HOME=" + m.home, "PATH=" + os.Getenv("PATH")}, m.Env...)
	_ = cmd.Run() // no daemon left is fine
	m.Selector.Close()
	_ = os.RemoveAll(m.Runtime)
}

// memrecallFor wires memrecall into w: a fake selector that picks pick
// after 2 s, a 0600 config naming it, a private runtime directory, and
// the hook in the agent's settings, written by `memrecall install`.
func memrecallFor(t *testing.T, w *World, pick []string) *memrecallSetup {
	t.Helper()
	b := memrecallBin(t)
	sel, err := fakemodel.OpenAI(fakemodel.Script{
		Select: fakemodel.SelectByName(pick...), SelectDelay: 2 * time.Second,
	}, fakemodel.Bounds{MaxRequests: 20, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// A short path: a unix socket path has at most 107 bytes.
	rt, err := os.MkdirTemp("", "mr")
	if err != nil {
		t.Fatal(err)
	}
	m := &memrecallSetup{
		Selector: sel, Runtime: rt, bin: b.path, home: w.Home,
		Env: []string{"MEMRECALL_RUNTIME_DIR=" + rt},
	}
	cfg, _ := json.Marshal(map[string]any{
		"selector":  map[string]any{"base_url": sel.URL + "/v1", "model": "fake-selector", "api_key": "fake-key"},
		"idle_exit": "5m",
	})
	cfgPath := filepath.Join(w.Home, ".config", "memrecall", "config.json")
	if err := os.MkdirAll(filepath.Dir(cfgPath), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(b.path, "install", "--agent", w.Agent.Name)
	cmd.Env = []string{"HOME=" + w.Home, "PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("memrecall install --agent %s: %v\n%s", w.Agent.Name, err, out)
	}
	checkHookBinary(t, w, b.hook)
	if w.Agent.Name == "qwen" && os.Getenv("MEMRECALL_E2E_QWEN_OWN_RECALL") != "1" {
		// memrecall replaces Qwen Code's own recall: with both, each
		// delivers the same documents (MEMRECALL_E2E_QWEN_OWN_RECALL=1
		// keeps both, to measure that).
		if err := w.PatchSettings(map[string]any{"memory": map[string]any{"enableManagedAutoMemory": false}}); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// checkHookBinary fails the test unless every memrecall hook command in
// w's agent settings runs the hook binary at hook: the command the README
// has users install, not `memrecall hook`.
func checkHookBinary(t *testing.T, w *World, hook string) {
	t.Helper()
	name, err := agent.ParseName(w.Agent.Name)
	if err != nil {
		t.Fatal(err)
	}
	path := agent.SettingsFile(name, agent.Env{Home: w.Home})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var settings any
	if err := json.Unmarshal(data, &settings); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	want := agent.HookCommand(hook, name)
	var ours []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if c, ok := v["command"].(string); ok && strings.Contains(c, "memrecall") {
				ours = append(ours, c)
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(settings)
	if len(ours) == 0 {
		t.Fatalf("%s holds no memrecall hook after memrecall install:\n%s", path, data)
	}
	for _, c := range ours {
		if c != want {
			t.Fatalf("%s runs %q, want the hook binary the README installs: %q", path, c, want)
		}
	}
}

// startDaemon runs `memrecall daemon` in the foreground for m's HOME and
// runtime directory, waits until its socket answers, and kills it at the
// end of the test.
func startDaemon(t *testing.T, m *memrecallSetup) *exec.Cmd {
	t.Helper()
	daemon := exec.Command(m.bin, "daemon")
	daemon.Env = append([]string{"HOME=" + m.home, "PATH=" + os.Getenv("PATH")}, m.Env...)
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = daemon.Process.Kill(); _ = daemon.Wait() })
	status := func() error {
		cmd := exec.Command(m.bin, "status")
		cmd.Env = daemon.Env
		return cmd.Run()
	}
	for range 100 {
		if status() == nil {
			return daemon
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the daemon did not answer `memrecall status` within 10 s")
	return nil
}

// withMemrecall is memrecallFor that stops the daemon at the end of the
// test.
func withMemrecall(t *testing.T, w *World, pick []string) *memrecallSetup {
	t.Helper()
	m := memrecallFor(t, w, pick)
	t.Cleanup(m.Close)
	return m
}

// errorTexts are what a failing hook or daemon could leave in front of the
// model. None of them occurs in a native run (TestNativeBaseline checks).
var errorTexts = []string{
	"memrecall", "hook error", "Hook error", "hook failed", "Hook failed",
	"panic:", "goroutine ", "ECONNREFUSED", "connection refused", "no such file or directory",
}

// checkNoErrorText fails when a request of res holds an error text.
// The agents' own install directory is blanked out first: Gemini CLI lists
// its built-in skills by absolute path, and that directory is named after
// this project by default, so "memrecall" would otherwise match text the
// agent itself put there.
func checkNoErrorText(t *testing.T, res *Result) {
	t.Helper()
	agents := AgentsDir()
	for _, r := range res.Requests {
		text := strings.ReplaceAll(Text(r.Body), agents, "<agents>")
		for _, e := range errorTexts {
			if strings.Contains(text, e) {
				i := strings.Index(text, e)
				t.Errorf("request %d (%s) holds %q: …%s…", r.Seq, r.Kind, e, excerpt(text, i))
			}
		}
	}
}

func excerpt(s string, i int) string {
	lo, hi := max(0, i-120), min(len(s), i+120)
	return s[lo:hi]
}

// checkNoDuplicates fails when a document's body reaches the model twice:
// in the last main request (which holds the whole conversation) every
// mark occurs at most once.
func checkNoDuplicates(t *testing.T, a *Agent, res *Result, docs []Doc) {
	t.Helper()
	main := MainRequests(res.Requests)
	if len(main) == 0 {
		t.Error("no main request")
		return
	}
	last := Text(main[len(main)-1].Body)
	for _, d := range docs {
		if n := Count(last, d.Mark); n > 1 {
			t.Errorf("%s reached the model %d times in one session", d.Name, n)
		}
	}
}

// fastDocs returns the names of the documents memrecall's deterministic
// stage puts first for prompt in w's memory: the documents a first request
// must carry.
func fastDocs(t *testing.T, w *World, prompt string) []string {
	t.Helper()
	got := FastDocs(w, prompt)
	if len(got) == 0 {
		t.Fatalf("memrecall ranks nothing for %q in %s: the scenario needs a lexical match", prompt, w.ProjectMemory)
	}
	return got
}

// TestRecallToolFree: on a tool-free turn the first model request carries
// the text of memrecall's top fast documents, once.
func TestRecallToolFree(t *testing.T) {
	for _, a := range AllAgents() {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			requireAgent(t, a)
			sc := scenariosFor(t, a)[0]
			w := newWorld(t, a, "billing-api")
			m := withMemrecall(t, w, sc.pick)
			res := do(t, Run{World: w, Prompt: sc.prompt, Script: freeScript(sc.pick), Env: m.Env})
			ds := docs(t, w)
			d := Measure(res.Requests, ds, IndexMark(w.ProjectMemory))
			t.Logf("%s with memrecall, tool-free: %+v", a.Name, d)
			want := fastDocs(t, w, sc.prompt)
			if len(want) > 2 {
				want = want[:2]
			}
			if !containsAll(d.First, want...) {
				t.Errorf("first request holds %v, want the top fast documents %v", d.First, want)
			}
			checkNoDuplicates(t, a, res, ds)
			checkNoErrorText(t, res)
		})
	}
}

// TestRecallToolUsing: with a selector that answers after 2 s and a tool
// call that comes back after it, the selector's remainder (its picks not
// delivered first) is in the request after the tool result, and nothing
// arrives twice.
func TestRecallToolUsing(t *testing.T) {
	for _, a := range AllAgents() {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			requireAgent(t, a)
			sc := scenariosFor(t, a)[0]
			w := newWorld(t, a, "billing-api")
			m := withMemrecall(t, w, sc.pick)
			res := do(t, Run{World: w, Prompt: sc.prompt, Tools: true, Script: toolScript(a, sc.pick), Env: m.Env})
			ds := docs(t, w)
			d := Measure(res.Requests, ds, IndexMark(w.ProjectMemory))
			t.Logf("%s with memrecall, tool-using: %+v; selector requests: %d", a.Name, d, len(m.Selector.Requests()))
			if len(m.Selector.Requests()) == 0 {
				t.Fatal("memrecall never asked its selector")
			}
			if !d.ToolTurn {
				t.Fatal("no main request carried the tool result")
			}
			var remainder []string
			for _, p := range sc.pick {
				if !containsAll(d.First, p) {
					remainder = append(remainder, p)
				}
			}
			if len(remainder) == 0 {
				t.Fatalf("the first request already held every pick %v: the scenario shows no refinement", sc.pick)
			}
			if !containsAll(d.AfterTool, remainder...) {
				t.Errorf("after the tool result: %v, want the selector's remainder %v", d.AfterTool, remainder)
			}
			checkNoDuplicates(t, a, res, ds)
			checkNoErrorText(t, res)
		})
	}
}

// TestRecallNoCrossSession runs two sessions of one user at once, in two
// projects with different memories, against one daemon that their hooks
// start together: each gets its own memory and neither project's
// documents reach the other's model.
func TestRecallNoCrossSession(t *testing.T) {
	for _, a := range AllAgents() {
		t.Run(a.Name, func(t *testing.T) {
			requireAgent(t, a)
			dir := t.TempDir()
			project, user := exampleTrees(t, a)
			wa, err := NewWorld(dir, "billing-api", a, project, user)
			if err != nil {
				t.Fatal(err)
			}
			other := filepath.Join(t.TempDir(), "tree")
			if err := writeFile(filepath.Join(other, "freeze-mobile.md"), []byte(
				"---\nname: Mobile release freeze\ndescription: how the mobile app deploys during a release freeze\ntype: project\n---\n"+
					"The mobile app ships through the store during a release freeze; deploy only hotfixes signed by Priya.\n")); err != nil {
				t.Fatal(err)
			}
			wb, err := NewWorld(dir, "mobile-app", a, other, "")
			if err != nil {
				t.Fatal(err)
			}
			// One user: one HOME, so one settings file, one config and one
			// daemon serve both projects.
			m := withMemrecall(t, wa, []string{"release-freeze-q4.md", "freeze-mobile.md"})
			// No daemon yet: the two sessions' first hooks both find none
			// at the same moment. The one that takes the instance lock
			// starts the daemon and the other waits for it (decision 0720);
			// each session must still get its own memory.
			// A question both projects' memories answer (Claude's example
			// tree answers it again since decision 0212).
			prompt := "how do we deploy during the release freeze?"
			var wg sync.WaitGroup
			results := make([]*Result, 2)
			errs := make([]error, 2)
			for i, w := range []*World{wa, wb} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					results[i], errs[i] = Run{World: w, Prompt: prompt, Tools: true, Script: toolScript(a, []string{"release-freeze-q4.md", "freeze-mobile.md"}), Env: m.Env}.Do(context.Background())
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("run %d: %v", i, err)
				}
				if results[i].Err != nil {
					t.Fatalf("run %d failed: %v\n%s", i, results[i].Err, tail(results[i].Stderr, 2000))
				}
			}
			docsA, docsB := docs(t, wa), docs(t, wb)
			for i, pair := range []struct {
				res          *Result
				own, foreign []Doc
			}{{results[0], docsA, docsB}, {results[1], docsB, docsA}} {
				var all strings.Builder
				for _, r := range pair.res.Requests {
					all.WriteString(Text(r.Body))
				}
				if got := Found(pair.foreign, all.String()); len(got) > 0 {
					t.Errorf("session %d received the other project's %v", i, got)
				}
				if got := Found(pair.own, all.String()); len(got) == 0 {
					t.Errorf("session %d received none of its own memory: the test shows nothing", i)
				}
				checkNoDuplicates(t, a, pair.res, pair.own)
			}
		})
	}
}

// TestRecallFailOpen: a daemon killed mid-turn, a missing memory
// directory and a corrupt config each leave a turn that completes with no
// memory and no error text in front of the model.
func TestRecallFailOpen(t *testing.T) {
	for _, a := range AllAgents() {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			requireAgent(t, a)
			sc := scenariosFor(t, a)[0]
			t.Run("daemon killed mid-turn", func(t *testing.T) {
				w := newWorld(t, a, "billing-api")
				m := withMemrecall(t, w, sc.pick)
				// This test's own daemon, so it can be killed: the hooks
				// find it running and use it.
				daemon := startDaemon(t, m)
				script := toolScript(a, sc.pick)
				// Killed as the model "thinks" before its tool call: after
				// the first request, before the tool result.
				var once sync.Once
				script.OnToolCall = func() { once.Do(func() { _ = daemon.Process.Kill() }) }
				res := do(t, Run{World: w, Prompt: sc.prompt, Tools: true, Script: script, Env: m.Env})
				d := Measure(res.Requests, docs(t, w), "")
				t.Logf("%s, daemon killed: %+v", a.Name, d)
				if !d.ToolTurn {
					t.Error("the turn did not complete: no request carried the tool result")
				}
				if len(d.AfterTool) > 0 {
					t.Errorf("after the kill %v arrived; the killed daemon's plan is gone", d.AfterTool)
				}
				checkNoErrorText(t, res)
			})
			t.Run("missing memory directory", func(t *testing.T) {
				w := newWorld(t, a, "billing-api")
				m := withMemrecall(t, w, sc.pick)
				if err := os.RemoveAll(w.ProjectMemory); err != nil {
					t.Fatal(err)
				}
				if w.UserMemory != "" {
					if err := os.RemoveAll(w.UserMemory); err != nil {
						t.Fatal(err)
					}
				}
				res := do(t, Run{World: w, Prompt: sc.prompt, Tools: true, Script: toolScript(a, sc.pick), Env: m.Env})
				allDocs, err := LoadDocs(filepath.Join(repoRoot(t), "examples", "memory"))
				if err != nil {
					t.Fatal(err)
				}
				d := Measure(res.Requests, allDocs, "")
				if !d.ToolTurn {
					t.Error("the turn did not complete")
				}
				if len(d.First)+len(d.AfterTool) > 0 {
					t.Errorf("memory %v arrived from a directory that does not exist", append(d.First, d.AfterTool...))
				}
				checkNoErrorText(t, res)
			})
			t.Run("corrupt config", func(t *testing.T) {
				w := newWorld(t, a, "billing-api")
				m := withMemrecall(t, w, sc.pick)
				cfg := filepath.Join(w.Home, ".config", "memrecall", "config.json")
				if err := os.WriteFile(cfg, []byte(`{"selector": {"base_url": `), 0o600); err != nil {
					t.Fatal(err)
				}
				res := do(t, Run{World: w, Prompt: sc.prompt, Tools: true, Script: toolScript(a, sc.pick), Env: m.Env})
				d := Measure(res.Requests, docs(t, w), "")
				t.Logf("%s, corrupt config: %+v", a.Name, d)
				if !d.ToolTurn {
					t.Error("the turn did not complete")
				}
				if a.Name != "qwen" && len(d.First)+len(d.AfterTool) > 0 {
					t.Errorf("memory %v arrived although the config is corrupt", append(d.First, d.AfterTool...))
				}
				if n := len(m.Selector.Requests()); n > 0 {
					t.Errorf("the selector was asked %d times with a corrupt config", n)
				}
				checkNoErrorText(t, res)
			})
		})
	}
}

// TestClaudeNoRerun: memrecall makes Claude Code call its model no more
// often than it does without memrecall, on a tool-free and a tool-using
// turn.
func TestClaudeNoRerun(t *testing.T) {
	a := ClaudeCode()
	requireAgent(t, a)
	sc := scenariosFor(t, a)[0]
	for _, tools := range []bool{false, true} {
		script := freeScript(sc.pick)
		if tools {
			script = toolScript(a, sc.pick)
		}
		w := newWorld(t, a, "billing-api")
		m := withMemrecall(t, w, sc.pick)
		res := do(t, Run{World: w, Prompt: sc.prompt, Tools: tools, Script: script, Env: m.Env})
		native := newWorld(t, a, "billing-api")
		resNative := do(t, Run{World: native, Prompt: sc.prompt, Tools: tools, Script: script})
		if got, want := len(res.Requests), len(resNative.Requests); got != want {
			t.Errorf("tools=%v: %d model requests with memrecall, %d without", tools, got, want)
		}
		if d := Measure(res.Requests, docs(t, w), ""); len(d.First) == 0 {
			t.Errorf("tools=%v: no memory reached the model, so the count shows nothing", tools)
		}
	}
}
