package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/memrecall/memrecall/agent"
	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
)

// Defaults of Options.
const (
	// DefaultIdleExit is how long the daemon lives without an event.
	DefaultIdleExit = time.Hour
	// DefaultSessionIdle ends a session that sent no event for this long:
	// Qwen Code in -p runs never sends SessionEnd.
	DefaultSessionIdle = 30 * time.Minute
	// answerMargin is kept back from the hook's budget for writing the
	// answer, so the daemon does not count a delivery the hook has
	// already given up on.
	answerMargin = 20 * time.Millisecond
	// maxConns bounds the connections served at once.
	maxConns = 64
	// latencyRing is how many recent event latencies Status reports.
	latencyRing = 64
)

// Options configure a Server.
type Options struct {
	// Dir is the runtime directory of the socket and lock (wire.Dir).
	Dir string
	// Config is the loaded config; ConfigErr, when set, makes the daemon
	// answer every event with nothing (fail open) and say so in Status.
	Config    Config
	ConfigErr error
	// Version is the daemon's protocol version; zero is wire.Version.
	// Tests set an older one to exercise replacement.
	Version int
	// Logger receives operational messages (never text or paths). Nil
	// discards them.
	Logger *slog.Logger
	// Selector, when set, replaces the one Config describes (tests).
	Selector model.Selector
	// Now is the wall clock for session idleness and for the ages shown
	// in injected text; nil is time.Now.
	Now func() time.Time
	// SnapshotDir is recall.Options.SnapshotDir for every corpus: where
	// the persistent snapshot of each memory tree is kept, so a daemon
	// that starts cold reads only what changed. "" is off.
	SnapshotDir string
	// ReadFile reads agent settings files for agent.Locate; nil is
	// os.ReadFile.
	ReadFile func(string) ([]byte, error)
	// Lock, when set, is the runtime directory's lock file, already locked
	// by the hook that started this daemon and inherited from it
	// (`memrecall daemon --lock-fd`). Listen checks that it is that file
	// and that it holds the lock, and keeps it as the instance lock instead
	// of taking its own; so between the hook's decision to start a daemon
	// and this one listening, no other hook starts a second one (decision
	// 0720). Listen owns it, and closes it on failure.
	Lock *os.File
}

// Server is a running daemon.
type Server struct {
	opts     Options
	version  int
	log      *slog.Logger
	selector model.Selector
	started  time.Time
	now      func() time.Time

	ln   *net.UnixListener
	lock *os.File
	sock string

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	slots  chan struct{}

	mu       sync.Mutex
	sessions map[sessionKey]*session
	corpora  map[rootsKey]*corpus
	lat      []int64
	lastSeen time.Time
	closed   bool
}

// Listen takes the runtime directory's lock, removes a stale socket file,
// and listens on the socket. It returns ErrRunning when another daemon
// holds the lock.
func Listen(opts Options) (*Server, error) {
	if err := wire.EnsureDir(opts.Dir); err != nil {
		if opts.Lock != nil {
			opts.Lock.Close()
		}
		return nil, err
	}
	var lock *os.File
	var err error
	if opts.Lock != nil {
		lock, err = adoptLock(opts.Lock, filepath.Join(opts.Dir, wire.LockName))
	} else {
		lock, err = lockFile(filepath.Join(opts.Dir, wire.LockName))
	}
	if err != nil {
		return nil, err
	}
	sock := filepath.Join(opts.Dir, wire.SocketName)
	// Holding the lock, any socket file left is a dead daemon's.
	if err := os.Remove(sock); err != nil && !errors.Is(err, fs.ErrNotExist) {
		lock.Close()
		return nil, fmt.Errorf("daemon: stale socket: %w", err)
	}
	// The umask makes the socket 0600 from its creation, so there is no
	// window in which another user could connect before a chmod.
	old := umask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	umask(old)
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("daemon: listen: %w", err)
	}
	ln.SetUnlinkOnClose(false)
	s := newServer(opts)
	s.ln, s.lock, s.sock = ln, lock, sock
	return s, nil
}

func newServer(opts Options) *Server {
	s := &Server{
		opts:     opts,
		version:  opts.Version,
		log:      opts.Logger,
		now:      opts.Now,
		started:  time.Now(),
		slots:    make(chan struct{}, maxConns),
		sessions: map[sessionKey]*session{},
		corpora:  map[rootsKey]*corpus{},
	}
	if s.version == 0 {
		s.version = wire.Version
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.opts.ReadFile == nil {
		s.opts.ReadFile = os.ReadFile
	}
	s.selector = opts.Selector
	if s.selector == nil && opts.Config.Selector.BaseURL != "" && opts.Config.Selector.Model != "" {
		sc := opts.Config.Selector
		sel, err := model.OpenAI(model.OpenAIConfig{BaseURL: sc.BaseURL, Model: sc.Model, APIKey: sc.APIKey})
		if err != nil && s.opts.ConfigErr == nil {
			// An unusable selector is a configuration error: fail open
			// rather than silently run without it.
			s.opts.ConfigErr = fmt.Errorf("%w: selector: %w", ErrConfigInvalid, err)
		}
		s.selector = sel
	}
	s.lastSeen = s.now()
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

func (s *Server) idleExit() time.Duration {
	if d := time.Duration(s.opts.Config.IdleExit); d > 0 {
		return d
	}
	return DefaultIdleExit
}

func (s *Server) sessionIdle() time.Duration {
	if d := time.Duration(s.opts.Config.SessionIdle); d > 0 {
		return d
	}
	return DefaultSessionIdle
}

// Serve accepts connections until ctx ends, the daemon has been idle for
// its idle period, or a newer hook replaced it; then it closes everything
// and returns. Its loops are bounded: the accept loop by the listener's
// close, the janitor by ctx.
func (s *Server) Serve(ctx context.Context) error {
	stop := context.AfterFunc(ctx, s.Close)
	defer stop()
	s.wg.Add(1)
	go s.janitor()
	s.log.Info("daemon listening", "pid", os.Getpid(), "version", s.version)
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			break
		}
		select {
		case s.slots <- struct{}{}:
		default:
			c.Close() // overloaded: the hook fails open
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() { <-s.slots }()
			s.serveConn(c)
		}()
	}
	s.Close()
	s.wg.Wait()
	s.shutdownSessions()
	return nil
}

// Close stops listening and releases the socket and lock, so a new daemon
// can start at once; sessions are shut down when Serve returns.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	if s.ln != nil {
		// Remove the name first: a hook that dials from now on finds no
		// daemon and starts one, which can take the lock released below.
		os.Remove(s.sock)
		s.ln.Close()
	}
	if s.lock != nil {
		s.lock.Close()
	}
}

func (s *Server) shutdownSessions() {
	s.mu.Lock()
	all := make([]*session, 0, len(s.sessions))
	for k, se := range s.sessions {
		all = append(all, se)
		delete(s.sessions, k)
	}
	s.dropUnusedLocked()
	s.mu.Unlock()
	for _, se := range all {
		se.shutdown()
	}
}

// janitor ends idle sessions and, after the idle period without events,
// the daemon. It wakes a few times per session-idle period.
func (s *Server) janitor() {
	defer s.wg.Done()
	tick := time.NewTicker(min(s.sessionIdle(), s.idleExit()) / 4)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
			if s.sweep() {
				s.log.Info("daemon idle, exiting")
				s.Close()
				return
			}
		}
	}
}

// sweep ends the sessions idle for longer than the session idle period and
// drops corpora no session uses; it reports whether the daemon itself has
// been idle for its idle period.
func (s *Server) sweep() bool {
	now := s.now()
	var ended []*session
	s.mu.Lock()
	for k, se := range s.sessions {
		if now.Sub(se.seen()) > s.sessionIdle() {
			ended = append(ended, se)
			delete(s.sessions, k)
		}
	}
	s.dropUnusedLocked()
	idle := now.Sub(s.lastSeen) > s.idleExit()
	s.mu.Unlock()
	for _, se := range ended {
		se.shutdown()
	}
	return idle
}

// dropUnusedLocked forgets the corpora no session reads, releasing their
// file-system watches (an engine of a session ending meanwhile keeps
// working on a closed corpus: it revalidates by stat).
func (s *Server) dropUnusedLocked() {
	used := map[rootsKey]bool{}
	for _, se := range s.sessions {
		used[se.corpus.key] = true
	}
	for k, co := range s.corpora {
		if !used[k] {
			co.c.Close()
			delete(s.corpora, k)
		}
	}
}

func (s *Server) serveConn(c *net.UnixConn) {
	defer c.Close()
	uid, err := peerUID(c)
	if err == nil {
		err = checkPeer(uid, os.Getuid())
	}
	if err != nil {
		s.log.Warn("connection refused", "err", err)
		return
	}
	// A hook sends its request at once; one that does not is dropped.
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	var req wire.Request
	if err := wire.Read(c, wire.MaxRequestBytes, &req); err != nil {
		return
	}
	c.SetReadDeadline(time.Time{})
	resp := s.Handle(req)
	c.SetWriteDeadline(time.Now().Add(2 * time.Second))
	_ = wire.Write(c, resp)
	if resp.Replaced {
		s.log.Info("replaced by a newer hook", "their_version", req.Version)
	}
}

// Handle answers one request. It is the whole protocol behind the socket,
// exported for tests and benchmarks that skip the connection.
func (s *Server) Handle(req wire.Request) wire.Response {
	resp := wire.Response{Version: s.version}
	if req.Version > s.version {
		// A newer hook: give way. The socket and lock are released before
		// the answer is written, so the hook can start its daemon at once.
		resp.Replaced = true
		s.Close()
		return resp
	}
	switch req.Op {
	case wire.OpStatus:
		st := s.Status()
		resp.Status = &st
	case wire.OpExit:
		s.Close()
	case wire.OpEvent:
		start := time.Now()
		budget := time.Duration(req.BudgetMillis)*time.Millisecond - answerMargin
		if budget <= 0 {
			budget = time.Millisecond
		}
		ctx, cancel := context.WithTimeout(s.ctx, budget)
		resp.Output = string(s.event(ctx, req))
		cancel()
		s.record(time.Since(start))
	}
	return resp
}

func (s *Server) record(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastSeen = s.now()
	if len(s.lat) == latencyRing {
		copy(s.lat, s.lat[1:])
		s.lat = s.lat[:latencyRing-1]
	}
	s.lat = append(s.lat, d.Microseconds())
}

// event runs one hook event and returns what the hook prints.
func (s *Server) event(ctx context.Context, req wire.Request) []byte {
	if s.opts.ConfigErr != nil {
		return nil
	}
	name, err := agent.ParseName(req.Agent)
	if err != nil {
		return nil
	}
	ev, err := agent.Parse(name, req.Event)
	if err != nil || ev.Op == agent.OpNone {
		return nil
	}
	if ev.Op == agent.OpSessionEnd {
		s.endSession(sessionKey{name, ev.SessionID})
		return nil
	}
	se, err := s.session(ev, req.Env)
	if err != nil {
		return nil
	}
	return se.handle(ctx, ev)
}

func (s *Server) endSession(k sessionKey) {
	s.mu.Lock()
	se := s.sessions[k]
	delete(s.sessions, k)
	s.mu.Unlock()
	if se != nil {
		se.shutdown()
	}
}

// session returns the open session of ev, creating it (and its corpus, if
// no session of the same roots has one) on its first event. A session
// keeps the roots it started with.
func (s *Server) session(ev agent.Event, env map[string]string) (*session, error) {
	k := sessionKey{ev.Agent, ev.SessionID}
	s.mu.Lock()
	se := s.sessions[k]
	s.mu.Unlock()
	if se != nil {
		return se, nil
	}
	roots, err := s.locate(ev, env)
	if err != nil {
		return nil, err
	}
	rk := rootsKey{roots.Project, roots.User, roots.PlainNotes}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("daemon: closed")
	}
	if se := s.sessions[k]; se != nil {
		return se, nil
	}
	co := s.corpora[rk]
	if co == nil {
		co = &corpus{key: rk, c: recall.NewCorpus(recall.Options{
			ProjectDir: rk.project, UserDir: rk.user, PlainProjectNotes: rk.plain,
			SnapshotDir: s.opts.SnapshotDir,
		})}
		s.corpora[rk] = co
	}
	se = newSession(k, co, recall.New(recall.Options{
		Corpus:         co.c,
		Selector:       s.selector,
		MaxPromptBytes: agent.PromptBudget(ev.Agent),
		Clock:          s.now,
	}), s.now)
	s.sessions[k] = se
	return se, nil
}

// locate finds the memory roots of ev's agent for its cwd, with the
// hook's environment, then applies the config's overrides.
func (s *Server) locate(ev agent.Event, env map[string]string) (agent.Roots, error) {
	getenv := func(k string) string { return env[k] }
	home := env["HOME"]
	if home == "" {
		return agent.Roots{}, errors.New("daemon: hook sent no HOME")
	}
	roots, err := agent.Locate(ev.Agent, ev.Cwd, agent.Env{Home: home, Getenv: getenv, ReadFile: s.opts.ReadFile})
	o, override := s.opts.Config.Roots[string(ev.Agent)]
	if err != nil && !override {
		return agent.Roots{}, fmt.Errorf("daemon: locate: %w", err)
	}
	if override {
		if o.Project != "" {
			roots.Project = o.Project
		}
		if o.User != "" {
			roots.User = o.User
		}
	}
	return roots, nil
}

// hash names a path or id in Status without revealing it.
func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
