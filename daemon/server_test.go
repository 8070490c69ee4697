package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/agent"
	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/internal/testenv"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
)

// copyTree copies the shipped example project memory into a temp dir.
func copyTree(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "examples", "memory", "project")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// serve starts a daemon on dir and stops it when the test ends. The
// returned channel is closed when Serve has returned.
func serve(t testing.TB, opts Options) (*Server, <-chan struct{}) {
	t.Helper()
	s, err := Listen(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Serve(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return s, done
}

// claudeOpts points every agent at tree (project) and one empty user
// directory, so the sessions of Claude and Qwen share one corpus; Gemini's
// read the same roots with plain notes (decision 0108) and share another.
func claudeOpts(t testing.TB, tree string) Options {
	user := t.TempDir()
	r := RootsConfig{Project: tree, User: user}
	return Options{
		Dir:    testenv.ShortDir(t),
		Config: Config{Roots: map[string]RootsConfig{"claude": r, "gemini": r, "qwen": r}},
	}
}

func event(agentName, session, hook, extra string) wire.Request {
	ev := fmt.Sprintf(`{"session_id":%q,"cwd":"/nowhere","hook_event_name":%q%s}`, session, hook, extra)
	return wire.Request{
		Version: wire.Version, Op: wire.OpEvent, Agent: agentName,
		Event: json.RawMessage(ev), Env: map[string]string{"HOME": "/nonexistent-home"},
		BudgetMillis: 60_000,
	}
}

func prompt(text string) string { return fmt.Sprintf(`,"prompt":%q`, text) }

// context_ returns the additionalContext of a hook's output, or "".
func contextOf(t testing.TB, out string) string {
	t.Helper()
	if out == "" {
		return ""
	}
	var a struct {
		S struct {
			C string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	return a.S.C
}

// titles lists the document headings ("## 1. Title") of an injected text.
func titles(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			_, title, _ := strings.Cut(line, ". ")
			out = append(out, title)
		}
	}
	return out
}

// warm opens a session on the shared corpus and waits until its engine's
// warm-up has read and indexed the tree, so a test's queries rank a warm
// corpus instead of racing the cold scan against the initial ceiling.
func warm(t testing.TB, s *Server, agentName string) {
	t.Helper()
	s.Handle(event(agentName, "warm-up", "SessionStart", `,"source":"startup"`))
	name, err := agent.ParseName(agentName)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	se := s.sessions[sessionKey{name, "warm-up"}]
	s.mu.Unlock()
	if se == nil {
		t.Fatal("SessionStart opened no session")
	}
	<-se.eng.Warmed() // the engine's own signal: no polling, no timeout to tune
}

func TestCheckPeer(t *testing.T) {
	if err := checkPeer(1000, 1000); err != nil {
		t.Errorf("same uid refused: %v", err)
	}
	for _, peer := range []int{0, 999, 1001} {
		if err := checkPeer(peer, 1000); !errors.Is(err, ErrForeignPeer) {
			t.Errorf("checkPeer(%d, 1000) = %v, want ErrForeignPeer", peer, err)
		}
	}
}

func TestPeerUIDIsOwn(t *testing.T) {
	dir := testenv.ShortDir(t)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "s"), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := net.Dial("unix", filepath.Join(dir, "s"))
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	c, err := ln.AcceptUnix()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	uid, err := peerUID(c)
	if err != nil || uid != os.Getuid() {
		t.Fatalf("peerUID = %d, %v; want %d", uid, err, os.Getuid())
	}
}

// TestForeignUIDRefused connects as another user (a child process run
// with nobody's uid; needs root) to a daemon whose socket and directory
// were opened to everyone, so only the SO_PEERCRED check stands between.
func TestForeignUIDRefused(t *testing.T) {
	if os.Getenv("MEMRECALL_TEST_DIAL") != "" {
		t.Skip("helper run")
	}
	if os.Getuid() != 0 {
		t.Skip("needs root to run a child as another user")
	}
	opts := claudeOpts(t, copyTree(t))
	s, _ := serve(t, opts)
	os.Chmod(opts.Dir, 0o777)
	os.Chmod(s.sock, 0o777)
	// The test binary's own directory is closed to other users: run a copy.
	bin, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(opts.Dir, "helper.test")
	if err := os.WriteFile(exe, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHelperDial$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MEMRECALL_TEST_DIAL="+s.sock)
	asNobody(cmd)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "DIAL: connected, no answer") {
		t.Fatalf("foreign uid was not refused:\n%s", out)
	}
	// The same request from this user is answered.
	resp, err := Ask(opts.Dir, wire.Request{Version: wire.Version, Op: wire.OpStatus}, 10*time.Second)
	if err != nil || resp.Status == nil {
		t.Fatalf("own uid not answered: %v", err)
	}
}

// TestHelperDial is the child of TestForeignUIDRefused.
func TestHelperDial(t *testing.T) {
	sock := os.Getenv("MEMRECALL_TEST_DIAL")
	if sock == "" {
		t.Skip("only run as a helper")
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		fmt.Println("DIAL: cannot connect:", err)
		return
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	if err := wire.Write(c, wire.Request{Version: wire.Version, Op: wire.OpStatus}); err != nil {
		fmt.Println("DIAL: connected, no answer (write)")
		return
	}
	var resp wire.Response
	if err := wire.Read(c, wire.MaxResponseBytes, &resp); err != nil {
		fmt.Println("DIAL: connected, no answer")
		return
	}
	fmt.Println("DIAL: ANSWERED", resp.Status != nil)
}

func TestStaleSocketReplaced(t *testing.T) {
	opts := claudeOpts(t, copyTree(t))
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// A dead daemon's socket: bound, never unlinked, nobody listening.
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(opts.Dir, wire.SocketName), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := net.Dial("unix", filepath.Join(opts.Dir, wire.SocketName)); err == nil {
		t.Fatal("stale socket still accepts")
	}
	serve(t, opts)
	if _, err := Ask(opts.Dir, wire.Request{Version: wire.Version, Op: wire.OpStatus}, 10*time.Second); err != nil {
		t.Fatalf("daemon on a stale socket: %v", err)
	}
	fi, err := os.Stat(filepath.Join(opts.Dir, wire.SocketName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

func TestOneInstance(t *testing.T) {
	opts := claudeOpts(t, copyTree(t))
	var wg sync.WaitGroup
	results := make([]error, 4)
	servers := make([]*Server, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			servers[i], results[i] = Listen(opts)
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range results {
		switch {
		case err == nil:
			won++
			servers[i].Close()
		case !errors.Is(err, ErrRunning):
			t.Errorf("Listen: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d daemons listened, want 1", won)
	}
}

func TestIdleExit(t *testing.T) {
	opts := claudeOpts(t, copyTree(t))
	opts.Config.IdleExit = Duration(20 * time.Millisecond)
	s, err := Listen(opts)
	if err != nil {
		t.Fatal(err)
	}
	// The event is handled before Serve starts the janitor, so the idle
	// period counts from the event's end, not from Listen: a test
	// goroutine held off the CPU for 20 ms between the two (-race, a
	// loaded machine) cannot see the daemon exit before its event.
	if out := s.Handle(event("claude", "s1", "UserPromptSubmit", prompt("deploy checklist"))); out.Output == "" {
		s.Close()
		t.Fatal("no answer before idling")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Serve(context.Background())
	}()
	<-done // Serve returns by itself once idle; the test times out otherwise
	if _, err := os.Stat(s.sock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket left after idle exit: %v", err)
	}
	s2, err := Listen(opts)
	if err != nil {
		t.Fatalf("lock not released after idle exit: %v", err)
	}
	s2.Close()
}

func TestSweepEndsIdleSessions(t *testing.T) {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	opts := claudeOpts(t, copyTree(t))
	opts.Now = func() time.Time { return now }
	s := newServer(opts)
	defer s.shutdownSessions()
	s.Handle(event("qwen", "a", "UserPromptSubmit", prompt("deploy")))
	now = now.Add(DefaultSessionIdle / 2)
	s.Handle(event("qwen", "b", "UserPromptSubmit", prompt("deploy")))
	now = now.Add(DefaultSessionIdle/2 + time.Second)
	if idle := s.sweep(); idle {
		t.Fatal("daemon idle with a recent event")
	}
	st := s.Status()
	if len(st.Sessions) != 1 || st.Sessions[0].ID != hash("qwen", "b") {
		t.Fatalf("sessions after sweep: %+v, want only b", st.Sessions)
	}
	now = now.Add(DefaultIdleExit + time.Second)
	if idle := s.sweep(); !idle {
		t.Fatal("daemon not idle after its idle period")
	}
	if st := s.Status(); len(st.Sessions) != 0 || len(st.Corpora) != 0 {
		t.Fatalf("left after sweep: %+v", st)
	}
}

// A busy session (an event running, or another waiting for its turn
// behind it) is never idle, and the sweep passes it by instead of waiting
// for its event: a session held busy does not hold up the sweep of
// another, idle one, and is not swept itself. The waiting event then runs
// on the live session. Once its events end, it is swept like any other.
func TestSweepSkipsBusySession(t *testing.T) {
	clock, advance := fakeClock()
	opts := claudeOpts(t, copyTree(t))
	opts.Now = clock
	s := newServer(opts)
	defer s.shutdownSessions()
	s.Handle(event("qwen", "busy", "UserPromptSubmit", prompt("deploy")))
	s.Handle(event("qwen", "idle", "UserPromptSubmit", prompt("deploy")))
	s.mu.Lock()
	busy := s.sessions[sessionKey{agent.Qwen, "busy"}]
	s.mu.Unlock()

	// An event that holds the session, as a cold first query does, and a
	// second event of the session waiting for its turn behind it.
	busy.mu.Lock()
	waiting := make(chan struct{})
	go func() {
		defer close(waiting)
		s.Handle(event("qwen", "busy", "PostToolUse", `,"tool_name":"Bash"`))
	}()
	testenv.AwaitMutexWaiter(t, "daemon.(*session).handle(", "the second event", busy.mu.Unlock)
	advance(DefaultSessionIdle + time.Second)
	swept := make(chan bool, 1)
	go func() { swept <- s.sweep() }()
	select {
	case <-swept:
	case <-time.After(10 * time.Second):
		busy.mu.Unlock()
		<-swept
		t.Fatal("the sweep waited for the busy session's event")
	}
	busy.mu.Unlock()
	<-waiting
	type row struct {
		ID     string
		Events int
	}
	var got []row
	for _, se := range s.Status().Sessions {
		got = append(got, row{se.ID, se.Events})
	}
	// The idle session is gone; the busy one ran its waiting event.
	if d := cmp.Diff([]row{{hash("qwen", "busy"), 2}}, got); d != "" {
		t.Errorf("sessions after the sweep (-want +got):\n%s", d)
	}
	advance(DefaultSessionIdle + time.Second)
	if s.sweep(); len(s.Status().Sessions) != 0 {
		t.Error("the session was not swept once its events ended")
	}
}

// Status waits for a busy session, but not with the server's lock held:
// the sweep, which needs that lock, goes on meanwhile, and Status reports
// the session once its event ends.
func TestStatusWaitsForBusySessionAlone(t *testing.T) {
	opts := claudeOpts(t, copyTree(t))
	s := newServer(opts)
	defer s.shutdownSessions()
	s.Handle(event("qwen", "busy", "UserPromptSubmit", prompt("deploy")))
	s.mu.Lock()
	busy := s.sessions[sessionKey{agent.Qwen, "busy"}]
	s.mu.Unlock()
	busy.mu.Lock()
	status := make(chan wire.Status, 1)
	go func() { status <- s.Status() }()
	// Wait until Status waits for the busy session's lock.
	testenv.AwaitMutexWaiter(t, "daemon.(*Server).Status(", "Status", busy.mu.Unlock)
	swept := make(chan bool, 1)
	go func() { swept <- s.sweep() }()
	select {
	case <-swept:
	case <-time.After(10 * time.Second):
		busy.mu.Unlock()
		<-swept
		t.Fatal("the sweep waited while Status waited for a busy session")
	}
	busy.mu.Unlock()
	if st := <-status; len(st.Sessions) != 1 || st.Sessions[0].ID != hash("qwen", "busy") || st.Sessions[0].Events != 1 {
		t.Errorf("Status after the event: %+v, want the busy session with its one event", st.Sessions)
	}
}

// TestReplacedByNewerHook: a hook of a newer version makes the daemon give
// way at once: socket and lock released before the answer.
func TestReplacedByNewerHook(t *testing.T) {
	opts := claudeOpts(t, copyTree(t))
	_, done := serve(t, opts)
	resp, err := Ask(opts.Dir, wire.Request{Version: wire.Version + 1, Op: wire.OpStatus}, 10*time.Second)
	if err != nil || !resp.Replaced || resp.Version != wire.Version {
		t.Fatalf("newer hook: %+v, %v; want Replaced from version %d", resp, err, wire.Version)
	}
	s2, err := Listen(opts) // no wait needed: released before the answer
	if err != nil {
		t.Fatalf("new daemon cannot start: %v", err)
	}
	s2.Close()
	<-done
	// An older hook is served by a newer daemon.
	opts.Dir = testenv.ShortDir(t)
	serve(t, opts)
	resp, err = Ask(opts.Dir, wire.Request{Version: wire.Version - 1, Op: wire.OpStatus}, 10*time.Second)
	if err != nil || resp.Replaced || resp.Status == nil {
		t.Fatalf("older hook: %+v, %v; want served", resp, err)
	}
}

func TestConfigErrorAnswersNothing(t *testing.T) {
	opts := claudeOpts(t, copyTree(t))
	opts.ConfigErr = ErrConfigInvalid
	s := newServer(opts)
	defer s.shutdownSessions()
	if out := s.Handle(event("claude", "s", "UserPromptSubmit", prompt("deploy checklist"))); out.Output != "" {
		t.Fatalf("answered with a broken config: %q", out.Output)
	}
	if !s.Status().ConfigError {
		t.Fatal("status does not report the config error")
	}
}

// gatedSelector answers, once released, with the manifest's last keys in
// reverse (so its choice differs from the lexical top two).
type gatedSelector struct{ release chan struct{} }

func (g gatedSelector) Select(ctx context.Context, req model.Request) ([]string, error) {
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	keys := req.Manifest.Keys()
	var out []string
	for i := len(keys) - 1; i >= 0 && len(out) < req.EffectiveLimit(); i-- {
		out = append(out, keys[i])
	}
	return out, nil
}

// TestHammerSessions: 8 sessions of three agents at once, each turn a
// query then 4 parallel tool results (as Gemini CLI runs AfterTool hooks)
// after the selector answers; no document reaches a session twice in a
// plan, and every selected document not delivered first is delivered
// exactly once, by exactly one of the parallel hooks.
func TestHammerSessions(t *testing.T) {
	tree := copyTree(t)
	opts := claudeOpts(t, tree)
	release := make(chan struct{})
	opts.Selector = gatedSelector{release}
	s, _ := serve(t, opts)
	warm(t, s, "claude")
	agents := []struct{ name, query, tool, end string }{
		{"claude", "UserPromptSubmit", "PostToolUse", "Stop"},
		{"gemini", "BeforeAgent", "AfterTool", "AfterAgent"},
		{"qwen", "UserPromptSubmit", "PostToolBatch", "Stop"},
	}
	const sessions, parallel = 8, 4
	type result struct {
		initial, refined []string
		answered         int
	}
	results := make([]result, sessions)
	var queried, wg sync.WaitGroup
	queried.Add(sessions)
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := agents[i%len(agents)]
			id := fmt.Sprintf("session-%d", i)
			ask := func(r wire.Request) string {
				resp, err := Ask(s.opts.Dir, r, 30*time.Second)
				if err != nil {
					t.Error(err)
				}
				return contextOf(t, resp.Output)
			}
			results[i].initial = titles(ask(event(a.name, id, a.query, prompt("deploy checklist and release notes for billing"))))
			queried.Done()
			<-release
			s.mu.Lock()
			se := s.sessions[sessionKey{agent.Name(a.name), id}]
			s.mu.Unlock()
			se.mu.Lock()
			settled := se.plan.Settled()
			se.mu.Unlock()
			<-settled
			var mu sync.Mutex
			var pw sync.WaitGroup
			for range parallel {
				pw.Add(1)
				go func() {
					defer pw.Done()
					got := titles(ask(event(a.name, id, a.tool, `,"tool_name":"run_shell_command"`)))
					mu.Lock()
					results[i].refined = append(results[i].refined, got...)
					if len(got) > 0 {
						results[i].answered++
					}
					mu.Unlock()
				}()
			}
			pw.Wait()
			ask(event(a.name, id, a.end, ""))
		}()
	}
	queried.Wait()
	close(release)
	wg.Wait()
	for i := range sessions {
		// The initial point may be empty (a loaded machine can pass the
		// engine's 100 ms ceiling): exactly-once must hold either way.
		if results[i].answered != 1 || len(results[i].refined) == 0 {
			t.Errorf("session %d: %d of %d parallel tool results delivered (%d docs), want exactly 1",
				i, results[i].answered, parallel, len(results[i].refined))
		}
		seen := map[string]int{}
		for _, ti := range append(results[i].initial, results[i].refined...) {
			seen[ti]++
		}
		for ti, n := range seen {
			if n > 1 {
				t.Errorf("session %d: %q delivered %d times", i, ti, n)
			}
		}
	}
	st := s.Status()
	// Gemini's sessions (1, 4, 7) share the plain-notes corpus; Claude's
	// (0, 3, 6 and the warm-up) and Qwen's (2, 5) the other.
	var shared []int
	for _, c := range st.Corpora {
		shared = append(shared, c.Sessions)
	}
	slices.Sort(shared)
	if diff := cmp.Diff([]int{3, 6}, shared); diff != "" {
		t.Errorf("sessions per corpus (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(sessions+1, len(st.Sessions)); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
}

func TestBadSelectorURLIsConfigError(t *testing.T) {
	opts := claudeOpts(t, copyTree(t))
	opts.Config.Selector = SelectorConfig{BaseURL: "ftp://x", Model: "m"}
	s := newServer(opts)
	defer s.shutdownSessions()
	if !s.Status().ConfigError {
		t.Fatal("an unusable selector URL is not reported as a config error")
	}
}

// TestClaudeAnswerFitsItsBudget: a full delivery of long documents to
// Claude Code stays within agent.PromptBudget (8,000 bytes, under the
// 10,000 characters Claude Code keeps whole) and still names every
// document; Gemini CLI gets the engine's larger budget.
func TestClaudeAnswerFitsItsBudget(t *testing.T) {
	tree := t.TempDir()
	for i := range 5 {
		body := strings.Repeat(fmt.Sprintf("回滚步骤%d：排空、快照、恢复。", i), 150)
		doc := fmt.Sprintf("---\nname: rollback runbook %d\ndescription: how to roll back the billing deploy, part %d\ntype: project\n---\n%s\n", i, i, body)
		if err := os.WriteFile(filepath.Join(tree, fmt.Sprintf("rollback-%d.md", i)), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	opts := claudeOpts(t, tree)
	s := newServer(opts)
	defer s.shutdownSessions()
	warm(t, s, "claude")
	sizes := map[string]int{}
	for _, a := range []string{"claude", "gemini"} {
		hook := map[string]string{"claude": "UserPromptSubmit", "gemini": "BeforeAgent"}[a]
		text := contextOf(t, s.Handle(event(a, "budget-"+a, hook, prompt("rollback runbook billing deploy"))).Output)
		if got := len(titles(text)); got != 5 {
			t.Fatalf("%s: %d documents, want 5:\n%s", a, got, text)
		}
		sizes[a] = len(text)
	}
	if sizes["claude"] > agent.PromptBudget(agent.Claude) || sizes["claude"] >= sizes["gemini"] {
		t.Fatalf("context bytes %v: claude must fit %d and be cut below gemini's", sizes, agent.PromptBudget(agent.Claude))
	}
}

// TestStatusHasNoText: status names sessions and corpora by hashes and
// counts; no prompt, memory text, title, path or session id appears.
func TestStatusHasNoText(t *testing.T) {
	// A name of its own: t.TempDir's last element is a counter such as
	// "001", which a pid or a latency can contain by chance.
	src := copyTree(t)
	tree := filepath.Join(filepath.Dir(src), "quokka-memory")
	if err := os.Rename(src, tree); err != nil {
		t.Fatal(err)
	}
	opts := claudeOpts(t, tree)
	s := newServer(opts)
	defer s.shutdownSessions()
	warm(t, s, "claude")
	s.Handle(event("claude", "secret-session-id", "UserPromptSubmit", prompt("deploy checklist zebracorn")))
	st := s.Status()
	if len(st.Sessions) != 2 || len(st.Corpora) != 1 || st.Corpora[0].Docs == 0 {
		t.Fatalf("status does not show the sessions and corpus: %+v", st)
	}
	raw, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"zebracorn", "deploy", "checklist", "Deploy", "secret-session-id", tree, filepath.Base(tree), ".md", "/"}
	for _, f := range forbidden {
		if strings.Contains(string(raw), f) {
			t.Errorf("status contains %q: %s", f, raw)
		}
	}
}

// TestFirstQueryOnColdCorpus: a session whose first event is its prompt
// (as in `claude -p`) waits, within the hook's budget, for the cold
// corpus to be read, instead of racing the scan against the engine's
// initial ceiling; with a generous budget it always gets its documents.
func TestFirstQueryOnColdCorpus(t *testing.T) {
	s := newServer(claudeOpts(t, copyTree(t)))
	defer s.shutdownSessions()
	text := contextOf(t, s.Handle(event("claude", "cold", "UserPromptSubmit", prompt("deploy checklist for billing-api"))).Output)
	if len(titles(text)) == 0 {
		t.Fatalf("first query on a cold corpus delivered nothing")
	}
}

// TestGeminiCorpusReadsPlainNotes: on the same roots, Gemini CLI's
// sessions get a corpus that reads a note without frontmatter (as Gemini
// writes them) and Claude's a corpus that skips it (decision 0108).
func TestGeminiCorpusReadsPlainNotes(t *testing.T) {
	tree := copyTree(t)
	if err := os.WriteFile(filepath.Join(tree, "gemini-note.md"), []byte("# Release freeze\nNo deploys on Thursday.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(claudeOpts(t, tree))
	defer s.shutdownSessions()
	s.Handle(event("claude", "c", "SessionStart", `,"source":"startup"`))
	s.Handle(event("gemini", "g", "SessionStart", `,"source":"startup"`))
	// Wait outside the lock: a warm-up must not be waited on by a holder of
	// the lock the daemon's own paths take.
	s.mu.Lock()
	var engines []*recall.Engine
	for _, se := range s.sessions {
		engines = append(engines, se.eng)
	}
	s.mu.Unlock()
	for _, eng := range engines {
		<-eng.Warmed()
	}
	st := s.Status()
	docs := map[string]int{}
	for _, se := range st.Sessions {
		for _, c := range st.Corpora {
			if c.Hash == se.Corpus && c.Scanned {
				docs[se.Agent] = c.Docs
			}
		}
	}
	if docs["claude"] == 0 || docs["gemini"] != docs["claude"]+1 {
		t.Errorf("documents per agent %v: want gemini's to hold claude's and the plain note", docs)
	}
}

// TestDroppedCorpusReleasesWatch: a corpus no session reads any more is
// closed when the daemon drops it, so its file-system watch (an inotify
// instance, of which a user has 128) does not outlive its sessions.
func TestDroppedCorpusReleasesWatch(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the watch is Linux's")
	}
	s := newServer(claudeOpts(t, copyTree(t)))
	defer s.shutdownSessions()
	for range 2 {
		// The second query revalidates on a watched tree.
		contextOf(t, s.Handle(event("claude", "w", "UserPromptSubmit", prompt("deploy checklist for billing-api"))).Output)
	}
	s.mu.Lock()
	var corpora []*corpus
	for _, co := range s.corpora {
		corpora = append(corpora, co)
	}
	s.mu.Unlock()
	if len(corpora) != 1 {
		t.Fatalf("want one corpus, got %d", len(corpora))
	}
	if !corpora[0].c.Watching() {
		// A refused instance is the catalog's documented fallback; the
		// test can only say so, not check the release. The refusal may
		// have been brief (the limit is shared), so a kernel that gives
		// instances now gets one more query, whose walk arms the watch
		// again, before the test calls it a defect.
		if err := inotifyRefused(); err != nil {
			t.Skipf("the kernel refuses inotify instances now (%v): nothing to release", err)
		}
		contextOf(t, s.Handle(event("claude", "w", "UserPromptSubmit", prompt("deploy checklist for billing-api"))).Output)
		if !corpora[0].c.Watching() {
			if err := inotifyRefused(); err != nil {
				t.Skipf("the kernel refuses inotify instances now (%v): nothing to release", err)
			}
			t.Fatal("the corpus does not watch its tree, though the kernel gives inotify instances")
		}
	}
	s.shutdownSessions()
	if corpora[0].c.Watching() {
		t.Error("the dropped corpus still watches its tree")
	}
}

// TestStatusSessionLines: a session's line in Status reads its idle time
// once its lock is held, so an event that ends while Status waits for it
// makes the idle time zero, not negative; a clock that steps back reads as
// zero too; and a session that ends while Status waits is neither listed
// nor counted among its corpus's sessions.
func TestStatusSessionLines(t *testing.T) {
	type line struct {
		ID             string
		Events         int
		IdleMS         int64
		CorpusSessions int
	}
	id := hash("qwen", "s")
	cases := []struct {
		name string
		// before runs with nothing held; while runs holding the session's
		// lock once Status waits for it (nil: Status does not wait).
		before func(advance func(time.Duration))
		while  func(s *Server, se *session, advance func(time.Duration), clock func() time.Time)
		want   []line
	}{
		{name: "idle", before: func(advance func(time.Duration)) { advance(3 * time.Second) },
			want: []line{{id, 1, 3000, 1}}},
		{name: "clock steps back", before: func(advance func(time.Duration)) { advance(-2 * time.Second) },
			want: []line{{id, 1, 0, 1}}},
		{name: "event ends while Status waits",
			before: func(advance func(time.Duration)) { advance(3 * time.Second) },
			while: func(s *Server, se *session, advance func(time.Duration), clock func() time.Time) {
				// What handle does, an event that ends 5 s after Status
				// began to wait.
				advance(5 * time.Second)
				se.events++
				se.last = clock()
			},
			want: []line{{id, 2, 0, 1}}},
		{name: "session ends while Status waits",
			while: func(s *Server, se *session, advance func(time.Duration), clock func() time.Time) {
				// What the sweep and SessionEnd do: out of the map, then
				// ended under the session's lock.
				s.mu.Lock()
				delete(s.sessions, se.key)
				s.mu.Unlock()
				se.ended = true
			},
			want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock, advance := fakeClock()
			opts := claudeOpts(t, copyTree(t))
			opts.Now = clock
			s := newServer(opts)
			defer s.shutdownSessions()
			s.Handle(event("qwen", "s", "UserPromptSubmit", prompt("deploy")))
			s.mu.Lock()
			se := s.sessions[sessionKey{agent.Qwen, "s"}]
			s.mu.Unlock()
			if tc.before != nil {
				tc.before(advance)
			}
			var st wire.Status
			if tc.while == nil {
				st = s.Status()
			} else {
				se.mu.Lock()
				status := make(chan wire.Status, 1)
				go func() { status <- s.Status() }()
				testenv.AwaitMutexWaiter(t, "daemon.(*Server).Status(", "Status", se.mu.Unlock)
				tc.while(s, se, advance, clock)
				se.mu.Unlock()
				st = <-status
			}
			var got []line
			for _, l := range st.Sessions {
				n := -1
				for _, c := range st.Corpora {
					if c.Hash == l.Corpus {
						n = c.Sessions
					}
				}
				got = append(got, line{l.ID, l.Events, l.IdleMS, n})
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("Status's sessions (-want +got):\n%s", d)
			}
			for _, c := range st.Corpora {
				if want := len(tc.want); c.Sessions != want {
					t.Errorf("corpus counts %d sessions, want %d", c.Sessions, want)
				}
			}
		})
	}
}

func TestCountWatchRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		cs   []wire.Corpus
		want int
	}{
		{"none", nil, 0},
		{"watched and unwatched", []wire.Corpus{{Watched: true}, {}}, 0},
		{"two of three refused", []wire.Corpus{{WatchRefused: true}, {Watched: true}, {WatchRefused: true}}, 2},
	} {
		if got := countWatchRefused(tc.cs); got != tc.want {
			t.Errorf("%s: countWatchRefused = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// stuckSelector answers only once released, whatever its context says:
// an engine's Shutdown waits for it, as it waits for the corpus's
// snapshot write under way (seconds on a 10,000-topic tree).
type stuckSelector struct{ called, release chan struct{} }

func (g stuckSelector) Select(context.Context, model.Request) ([]string, error) {
	g.called <- struct{}{}
	<-g.release
	return nil, nil
}

// stuckSession makes a server of opts with one session, qwen's "a",
// whose first prompt's plan is in its selector call, which answers only
// once release is closed: the session's engine cannot shut down before.
func stuckSession(opts Options) (s *Server, se *session, release chan struct{}) {
	called := make(chan struct{}, 1)
	release = make(chan struct{})
	opts.Selector = stuckSelector{called, release}
	s = newServer(opts)
	s.Handle(event("qwen", "a", "UserPromptSubmit", prompt("deploy")))
	<-called // the plan's selector call has begun
	s.mu.Lock()
	se = s.sessions[sessionKey{agent.Qwen, "a"}]
	s.mu.Unlock()
	return s, se, release
}

// TestSessionEndDoesNotWaitForShutdown: a SessionEnd is answered once its
// session is out of the server, not after its engine has shut down, which
// waits for the engine's selector calls and for the corpus's snapshot
// write (5-8 s after a first query of 10,000 topics at load 12): the
// agent waits for its SessionEnd hook when it exits. shutdownSessions
// still waits for the engine.
func TestSessionEndDoesNotWaitForShutdown(t *testing.T) {
	s, se, release := stuckSession(claudeOpts(t, copyTree(t)))
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		s.Handle(event("qwen", "a", "SessionEnd", `,"reason":"exit"`))
	}()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		close(release)
		<-ended
		s.shutdownSessions()
		t.Fatal("the SessionEnd answer waited for the engine's shutdown")
	}
	if n := len(s.Status().Sessions); n != 0 {
		t.Errorf("%d sessions after SessionEnd, want none", n)
	}
	checkShutdownSessionsWaits(t, s, se, release)
}

// checkShutdownSessionsWaits checks that shutdownSessions waits for the
// engine of se, a session ended in the background whose selector call is
// stuck until release is closed, and that se has ended once it returns.
func checkShutdownSessionsWaits(t *testing.T, s *Server, se *session, release chan struct{}) {
	t.Helper()
	shut := make(chan struct{})
	go func() {
		defer close(shut)
		s.shutdownSessions()
	}()
	for i := 0; !testenv.GoroutineWith("daemon.(*Server).shutdownSessions(", "sync.(*WaitGroup).Wait("); i++ {
		if i == 10000 {
			close(release)
			<-shut
			t.Fatal("shutdownSessions did not wait for the ended session's engine in 10 s")
		}
		select {
		case <-shut:
			close(release)
			t.Fatal("shutdownSessions returned before the ended session's engine shut down")
		case <-time.After(time.Millisecond):
		}
	}
	close(release)
	<-shut
	se.mu.Lock()
	defer se.mu.Unlock()
	if !se.ended {
		t.Error("the ended session is not ended")
	}
}

// TestSweepDoesNotWaitForShutdown: the sweep takes an idle session out of
// the server and leaves its engine's shutdown, which waits for the
// engine's selector calls and for the corpus's snapshot write, to a
// goroutine of its own, as a SessionEnd does: the janitor that sweeps
// waited seconds for it at 10,000 topics, and the idle checks and the
// sweep of other sessions with it (review finding rv8h-6).
// shutdownSessions still waits for the engine.
func TestSweepDoesNotWaitForShutdown(t *testing.T) {
	clock, advance := fakeClock()
	opts := claudeOpts(t, copyTree(t))
	opts.Now = clock
	s, se, release := stuckSession(opts)
	advance(DefaultSessionIdle + time.Second)
	swept := make(chan struct{})
	go func() {
		defer close(swept)
		s.sweep()
	}()
	giveUp := func(msg string) {
		close(release)
		<-swept
		s.shutdownSessions()
		t.Fatal(msg)
	}
	// The session's engine comes to wait for its selector call; the
	// goroutine that waits must not be the sweep's.
	for i := 0; !testenv.GoroutineWith("recall.(*Engine).ShutdownFrom("); i++ {
		if i == 10000 {
			giveUp("the idle session's engine did not come to shut down in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	if testenv.GoroutineWith("daemon.(*Server).sweep(", "recall.(*Engine).ShutdownFrom(") {
		giveUp("the sweep waits for the idle session's engine to shut down")
	}
	<-swept
	if n := len(s.Status().Sessions); n != 0 {
		t.Errorf("%d sessions after the sweep, want none", n)
	}
	checkShutdownSessionsWaits(t, s, se, release)
}

// TestEventOnSessionEndedMeanwhile: an event that found its session in
// the server just before the sweep (or a SessionEnd) took it out, and so
// comes to the session's lock only after the session has ended, runs on
// a new session of the same key, as the same event a moment later would;
// it does not answer nothing.
func TestEventOnSessionEndedMeanwhile(t *testing.T) {
	s := newServer(claudeOpts(t, copyTree(t)))
	defer s.shutdownSessions()
	const q = "deploy checklist for billing-api"
	want := contextOf(t, s.Handle(event("claude", "other", "UserPromptSubmit", prompt(q))).Output)
	if want == "" {
		t.Fatal("the query recalls nothing: the test would prove nothing")
	}
	s.Handle(event("claude", "s", "SessionStart", `,"source":"startup"`))
	k := sessionKey{agent.Claude, "s"}
	s.mu.Lock()
	se := s.sessions[k]
	s.mu.Unlock()
	se.mu.Lock()
	answer := make(chan wire.Response, 1)
	go func() { answer <- s.Handle(event("claude", "s", "UserPromptSubmit", prompt(q))) }()
	testenv.AwaitMutexWaiter(t, "daemon.(*session).handle(", "the event", se.mu.Unlock)
	// What the sweep does to an idle session: out of the map, then ended
	// under the session's lock.
	s.mu.Lock()
	delete(s.sessions, k)
	s.mu.Unlock()
	se.ended = true
	se.mu.Unlock()
	got := contextOf(t, (<-answer).Output)
	se.shutdown()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the event's answer (-want +got):\n%s", d)
	}
	var ids []string
	for _, l := range s.Status().Sessions {
		ids = append(ids, l.ID)
	}
	wantIDs := []string{hash("claude", "other"), hash("claude", "s")}
	slices.Sort(wantIDs)
	if d := cmp.Diff(wantIDs, ids); d != "" {
		t.Errorf("sessions (-want +got):\n%s", d)
	}
}

// fakeClock returns a clock for Options.Now that stands still at 09:00 on
// 2026-11-30 until advance moves it on; both are safe to call beside the
// server's goroutines.
func fakeClock() (now func() time.Time, advance func(time.Duration)) {
	var mu sync.Mutex
	t := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	now = func() time.Time { mu.Lock(); defer mu.Unlock(); return t }
	advance = func(d time.Duration) { mu.Lock(); defer mu.Unlock(); t = t.Add(d) }
	return now, advance
}
