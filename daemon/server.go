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
	"github.com/memrecall/memrecall/memory"
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
	// ConfigPath, when set, is the file Config was loaded from: before each
	// event the daemon compares the file's size and modification time with
	// what it last loaded and, if they changed, loads it again (LoadConfig,
	// with Getenv), so an edit applies without a restart (decision 0723).
	// A config that became unusable makes the daemon answer nothing, as at
	// start; a fixed one makes it answer again.
	ConfigPath string
	// Getenv is the daemon's environment for reloading the config; nil is
	// os.Getenv.
	Getenv func(string) string
	// IdleExit, when positive, overrides the config's idle_exit
	// (`memrecall daemon --idle`), across reloads too.
	IdleExit time.Duration
	// Version is the daemon's protocol version; zero is wire.Version.
	// Tests set an older one to exercise replacement.
	Version int
	// Logger receives operational messages (never text or paths). Nil
	// discards them.
	Logger *slog.Logger
	// Selector, when set, replaces the one Config describes (tests).
	Selector model.Selector
	// Now is the wall clock for session idleness, for the ages shown in
	// injected text and for the config file's racy window; nil is
	// time.Now.
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
	// ending counts the sessions endSession and sweep are shutting down.
	ending sync.WaitGroup

	mu     sync.Mutex
	cfg    Config
	cfgErr error
	// cfgStamp is the config file's stamp when it was last read, first
	// seen at cfgSeen; cfgTrusted when it was not racy then, so an equal
	// stamp needs no read. cfgContent is what the config in force was
	// parsed from (cfgLoaded: it was, by reloadConfig).
	cfgStamp   configStamp
	cfgSeen    time.Time
	cfgTrusted bool
	cfgContent configContent
	cfgLoaded  bool
	sessions   map[sessionKey]*session
	corpora    map[memory.Roots]*corpus
	lat        []int64
	lastSeen   time.Time
	// inflight counts the events being handled (beginEvent, record).
	inflight int
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
		return nil, fmt.Errorf("%w: %w", errRuntimeDir, err)
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
		return nil, fmt.Errorf("%w: %w", errStaleSocket, err)
	}
	// The umask makes the socket 0600 from its creation, so there is no
	// window in which another user could connect before a chmod.
	old := umask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	umask(old)
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("%w: %w", errListen, err)
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
		corpora:  map[memory.Roots]*corpus{},
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
	if s.opts.Getenv == nil {
		s.opts.Getenv = os.Getenv
	}
	// No stamp yet: the first event reads the file again, so an edit
	// between the caller's LoadConfig and now is not missed.
	s.cfgStamp = noStamp
	s.applyConfigLocked(opts.Config, opts.ConfigErr)
	s.lastSeen = s.now()
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// applyConfigLocked makes cfg (or, when err is set, "answer nothing") the
// daemon's config, with the selector it describes. Sessions already open
// keep the engine, and so the selector and roots, they started with.
func (s *Server) applyConfigLocked(cfg Config, err error) {
	s.cfg, s.cfgErr = cfg, err
	s.selector = s.opts.Selector
	if s.selector == nil && cfg.Selector.BaseURL != "" && cfg.Selector.Model != "" {
		sc := cfg.Selector
		sel, selErr := model.OpenAI(model.OpenAIConfig{BaseURL: sc.BaseURL, Model: sc.Model, APIKey: sc.APIKey})
		if selErr != nil && s.cfgErr == nil {
			// An unusable selector is a configuration error: fail open
			// rather than silently run without it.
			s.cfgErr = fmt.Errorf("%w: selector: %w", ErrConfigInvalid, selErr)
		}
		s.selector = sel
	}
}

// configStamp is what tells a changed config file: whether it exists, its
// size, modification time and mode (a chmod 600 that makes a refused file
// usable changes only the mode), and where the platform gives them its
// change time, inode and device. The change time is what an edit cannot
// forge: an edit that keeps the size and sets the modification time back
// (touch -r) still moves it, and so does a rename over the file.
type configStamp struct {
	exists   bool
	size     int64
	mod      time.Time
	ctime    time.Time
	ino, dev uint64
	mode     fs.FileMode
}

// noStamp matches no file's stamp: the next event loads the file again.
var noStamp = configStamp{size: -1}

func stampOf(path string) configStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return configStamp{}
	}
	ino, dev, ctime := statIDs(fi)
	return configStamp{exists: true, size: fi.Size(), mod: fi.ModTime(), ctime: ctime, ino: ino, dev: dev, mode: fi.Mode()}
}

// changed is the later of the stamp's modification and change times: when
// the file last changed, as far as the stamp can tell.
func (st configStamp) changed() time.Time {
	if st.ctime.After(st.mod) {
		return st.ctime
	}
	return st.mod
}

// racy reports whether the stamp, taken at now and first seen at seen,
// cannot vouch for the file: the file changed within memory.RacyWindow of
// now, so an edit of the same size in the same timestamp tick would leave
// the stamp unchanged. The catalog distrusts such a stat for the same
// reason. A file dated ahead of the clock (a future modification time, or
// a network file system's skewed clock) is distrusted for at most
// memory.RacyWindow after the stamp was first seen: a same-tick edit
// happens within a tick of the one that made the stamp, so it is seen by
// then.
func (st configStamp) racy(now, seen time.Time) bool {
	return st.exists && now.Sub(st.changed()) < memory.RacyWindow && now.Sub(seen) < memory.RacyWindow
}

// configContent is what a load of the config file depends on besides the
// environment: whether it could be read, its mode (the 0600 rule) and a
// digest of its bytes. Two loads with equal contents give the same
// config, so the second neither rebuilds the selector nor logs.
type configContent struct {
	exists  bool
	readErr bool
	mode    fs.FileMode
	sum     [sha256.Size]byte
}

// reloadConfig loads the config file again when it changed since it was
// last loaded: one stat per event. It returns the config in force. A file
// that changed within the racy window of the load is read again by the
// next event too, until its stamp is old enough to trust (or has been
// seen for the racy window); a read that finds the same bytes and mode as
// the config in force changes nothing and logs nothing.
func (s *Server) reloadConfig() (Config, error) {
	if s.opts.ConfigPath == "" {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.cfg, s.cfgErr
	}
	st := stampOf(s.opts.ConfigPath)
	s.mu.Lock()
	if st == s.cfgStamp && s.cfgTrusted {
		defer s.mu.Unlock()
		return s.cfg, s.cfgErr
	}
	s.mu.Unlock()
	data, readErr := os.ReadFile(s.opts.ConfigPath)
	content := configContent{
		exists:  !errors.Is(readErr, fs.ErrNotExist),
		readErr: readErr != nil && !errors.Is(readErr, fs.ErrNotExist),
		mode:    st.mode,
		sum:     sha256.Sum256(data),
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if st != s.cfgStamp {
		s.cfgSeen = now
	}
	s.cfgStamp = st
	s.cfgTrusted = !st.racy(now, s.cfgSeen)
	if s.cfgLoaded && content == s.cfgContent {
		return s.cfg, s.cfgErr
	}
	cfg, err := parseConfig(s.opts.ConfigPath, data, readErr, s.opts.Getenv)
	s.cfgContent, s.cfgLoaded = content, true
	s.applyConfigLocked(cfg, err)
	s.log.Info("config reloaded", "error", ConfigErrorKind(s.cfgErr))
	return s.cfg, s.cfgErr
}

func (s *Server) idleExit() time.Duration {
	if s.opts.IdleExit > 0 {
		return s.opts.IdleExit
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := time.Duration(s.cfg.IdleExit); d > 0 {
		return d
	}
	return DefaultIdleExit
}

func (s *Server) sessionIdle() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := time.Duration(s.cfg.SessionIdle); d > 0 {
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
	s.ending.Wait() // the sessions SessionEnd and the sweep ended
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
// been idle for its idle period: no event in flight, and none ended within
// the period. A busy session is not idle, and the sweep passes it by
// rather than wait for its event (which would hold the server's lock for
// as long as a cold first query takes). The sessions it ends shut down in
// the background, as a SessionEnd's do (endInBackground), so that the
// janitor does not wait for their engines.
func (s *Server) sweep() bool {
	now := s.now()
	sessionIdle, idleExit := s.sessionIdle(), s.idleExit()
	s.mu.Lock()
	for k, se := range s.sessions {
		if d, ok := se.idleFor(now); ok && d > sessionIdle {
			delete(s.sessions, k)
			s.endInBackgroundLocked(se)
		}
	}
	s.dropUnusedLocked()
	idle := s.inflight == 0 && now.Sub(s.lastSeen) > idleExit
	s.mu.Unlock()
	return idle
}

// dropUnusedLocked forgets the corpora no session reads, releasing their
// file-system watches (an engine of a session ending meanwhile keeps
// working on a closed corpus: it revalidates by stat).
func (s *Server) dropUnusedLocked() {
	used := map[memory.Roots]bool{}
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
		s.reloadConfig()
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
		s.beginEvent()
		out, rec := s.event(ctx, req)
		cancel()
		resp.Output = string(out)
		took := time.Since(start)
		s.record(took)
		// Kinds, counts, durations and a hash only: never the prompt, the
		// memory, a title or a path (decision 0722).
		s.log.Info("event", "agent", rec.agent, "op", rec.op, "outcome", rec.outcome,
			"session", rec.session, "docs", rec.docs, "out_bytes", len(out),
			"budget_ms", req.BudgetMillis, "took_us", took.Microseconds())
	}
	return resp
}

// beginEvent counts an event in flight: the daemon is not idle while one
// is handled, however long it takes (record ends it).
func (s *Server) beginEvent() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight++
}

// record ends an event begun by beginEvent that took d.
func (s *Server) record(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight--
	s.lastSeen = s.now()
	if len(s.lat) == latencyRing {
		copy(s.lat, s.lat[1:])
		s.lat = s.lat[:latencyRing-1]
	}
	s.lat = append(s.lat, d.Microseconds())
}

// eventRecord is what the log says about one event: kinds, a hash and
// counts, nothing the agent or the memory wrote.
type eventRecord struct {
	agent   string // a known agent name, else "unknown"
	op      string // agent.Op's name, "" before parsing
	outcome string // ok, config_error, bad_agent, bad_event, ignored, session_end, no_roots
	session string // hash of (agent, session id)
	docs    int    // documents delivered
}

// event runs one hook event and returns what the hook prints.
func (s *Server) event(ctx context.Context, req wire.Request) ([]byte, eventRecord) {
	rec := eventRecord{agent: "unknown"}
	cfg, cfgErr := s.reloadConfig()
	if cfgErr != nil {
		rec.outcome = "config_error"
		return nil, rec
	}
	name, err := agent.ParseName(req.Agent)
	if err != nil {
		rec.outcome = "bad_agent"
		return nil, rec
	}
	rec.agent = string(name)
	ev, err := agent.Parse(name, req.Event)
	if err != nil {
		rec.outcome = "bad_event"
		return nil, rec
	}
	rec.op, rec.session = ev.Op.String(), hash(string(name), ev.SessionID)
	if ev.Op == agent.OpNone {
		rec.outcome = "ignored"
		return nil, rec
	}
	if ev.Op == agent.OpSessionEnd {
		s.endSession(sessionKey{name, ev.SessionID})
		rec.outcome = "session_end"
		return nil, rec
	}
	// A session the sweep or a SessionEnd ends between the look-up and
	// handle is gone for this event as for the next: it runs on a new
	// session, as it would have a moment later, rather than on none. Once
	// more at most; a session ended again in that moment answers nothing.
	for try := 0; ; try++ {
		se, err := s.session(ev, req.Env, cfg)
		if err != nil {
			rec.outcome = "no_roots"
			return nil, rec
		}
		out, docs, ok := se.handle(ctx, ev)
		if ok || try == 1 {
			rec.outcome, rec.docs = "ok", docs
			return out, rec
		}
	}
}

// endSession takes k's session out of the server and shuts it down in
// the background (endInBackground): the agent waits for its SessionEnd
// hook as it exits.
func (s *Server) endSession(k sessionKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if se := s.sessions[k]; se != nil {
		delete(s.sessions, k)
		s.endInBackgroundLocked(se)
	}
}

// endInBackgroundLocked shuts se, which the caller has just taken out of
// the server, down on a goroutine of its own, counted in s.ending, which
// shutdownSessions waits for. The engine's Shutdown waits for its
// selector calls, which need not heed their cancellation, and for the
// corpus's snapshot write under way, which after a first query of 10,000
// topics took 4.5-8.6 s (BenchmarkSessionEnd) and waits at the corpus's
// gate for up to 5 s more while other sessions' queries rank (decision
// 0837); neither a SessionEnd's answer nor the janitor's sweep waits for
// that. The caller holds s.mu: every Add happens before Serve's
// shutdownSessions waits, since the janitor and the connections have
// returned by then.
func (s *Server) endInBackgroundLocked(se *session) {
	s.ending.Add(1)
	go func() {
		defer s.ending.Done()
		se.shutdown()
	}()
}

// session returns the open session of ev, creating it (and its corpus, if
// no session of the same roots has one) on its first event. A session
// keeps the roots it started with.
func (s *Server) session(ev agent.Event, env map[string]string, cfg Config) (*session, error) {
	k := sessionKey{ev.Agent, ev.SessionID}
	s.mu.Lock()
	se := s.sessions[k]
	s.mu.Unlock()
	if se != nil {
		return se, nil
	}
	roots, err := s.locate(ev, env, cfg)
	if err != nil {
		return nil, err
	}
	rk := memory.Roots{Project: roots.Project, User: roots.User, PlainProject: roots.PlainNotes}
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
			ProjectDir: rk.Project, UserDir: rk.User, PlainProjectNotes: rk.PlainProject,
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
func (s *Server) locate(ev agent.Event, env map[string]string, cfg Config) (agent.Roots, error) {
	getenv := func(k string) string { return env[k] }
	home := env["HOME"]
	if home == "" {
		return agent.Roots{}, errors.New("daemon: hook sent no HOME")
	}
	roots, err := agent.Locate(ev.Agent, ev.Cwd, agent.Env{Home: home, Getenv: getenv, ReadFile: s.opts.ReadFile})
	o, override := cfg.Roots[string(ev.Agent)]
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
