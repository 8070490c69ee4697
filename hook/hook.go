// Package hook is the client side of the memrecall hook: it reads one
// agent event from stdin, hands it to the per-user recall daemon in one
// round trip, starting the daemon first if there is none, and prints the
// daemon's answer. It fails open: whatever goes wrong, it prints nothing
// and the command exits 0, within Budget.
//
// The package imports only the standard library and daemon/wire, so a
// hook process costs its spawn and one round trip: no catalog, no scoring
// tables (a test pins the dependency set).
package hook

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
)

// Budget is the longest a hook holds the agent, daemon start included.
// See docs/decisions/0711-budgets.md: a warm round trip takes a few
// milliseconds and the engine's own initial wait is at most 100 ms; the
// rest is room for starting the daemon on the first event of the day.
const Budget = 500 * time.Millisecond

// Sentinel errors of Run; the command prints nothing for any of them.
var (
	ErrTooLarge  = errors.New("hook: event too large")
	ErrEmpty     = errors.New("hook: empty event")
	ErrNoDaemon  = errors.New("hook: no daemon answered")
	ErrTimeout   = errors.New("hook: budget spent")
	ErrBadAnswer = errors.New("hook: bad answer from daemon")
)

// Config is one hook run.
type Config struct {
	// Agent is the --agent value, passed through to the daemon.
	Agent string
	// Stdin holds the event; Stdout receives the answer, if any.
	Stdin  io.Reader
	Stdout io.Writer
	// Dir is the daemon's runtime directory (wire.Dir).
	Dir string
	// Environ is the hook's environment; only wire.EnvNames of it is sent.
	Environ []string
	// Budget bounds the whole run; zero is Budget.
	Budget time.Duration
	// Start starts a daemon in the background and returns at once. It is
	// called only by the hook that holds the runtime directory's lock
	// (wire.LockName), which it passes on: the daemon keeps lock as its
	// own instance lock, so no other hook starts a second daemon meanwhile.
	// Start owns lock: it hands it on or closes it. Nil: never start one.
	Start func(lock *os.File) error
	// Version is the protocol version the hook claims; zero is
	// wire.Version. Tests claim a newer one to replace a daemon.
	Version int
}

// Run handles one hook event. It returns why nothing was printed, for
// tests and debugging; the command ignores it and exits 0.
//
// When no daemon answers (or an older one gives way), the hook that can
// take the runtime directory's lock starts one and hands it the lock; every
// other hook, and this one after starting, dials again every few
// milliseconds until the daemon listens or the run's budget is spent. So
// hooks of several sessions that all find no daemon start exactly one and
// are all answered by it (decision 0720).
//
// Its one clock is the real one (time.Now): the deadline becomes the
// socket's deadline and the event read's timer, which run on that clock,
// so no other clock could time a run.
func Run(cfg Config) error {
	budget := cfg.Budget
	if budget <= 0 {
		budget = Budget
	}
	deadline := time.Now().Add(budget)

	event, err := readEvent(cfg.Stdin, deadline)
	if err != nil {
		return err
	}
	if len(event) == 0 {
		return ErrEmpty
	}
	version := cfg.Version
	if version == 0 {
		version = wire.Version
	}
	req := wire.Request{
		Version: version, Op: wire.OpEvent, Agent: cfg.Agent,
		Event: event, Env: wire.EnvNames(cfg.Environ),
	}
	// Encoding validates the event (json.RawMessage is compacted, so a
	// malformed one fails here), once, before any dial or daemon start.
	req.BudgetMillis = int(time.Until(deadline) / time.Millisecond)
	frame, err := wire.Encode(req)
	if err != nil {
		return fmt.Errorf("hook: event is not JSON: %w", err)
	}
	sock := filepath.Join(cfg.Dir, wire.SocketName)
	resp, err := exchange(sock, deadline, func() ([]byte, error) { return frame, nil })
	if err == nil && !resp.Replaced {
		return write(cfg.Stdout, resp)
	}
	if err != nil && !errors.Is(err, ErrNoDaemon) {
		return err
	}
	// No daemon, or an older one that has just released its socket and
	// lock: start one (or wait for the one another hook is starting).
	resp, err = awaitDaemon(cfg, sock, req, deadline)
	if err != nil {
		return err
	}
	if resp.Replaced {
		return ErrNoDaemon // the daemon we waited for is older still
	}
	return write(cfg.Stdout, resp)
}

func write(w io.Writer, resp wire.Response) error {
	if resp.Output == "" {
		return nil
	}
	if _, err := io.WriteString(w, resp.Output); err != nil {
		return fmt.Errorf("hook: write answer: %w", err)
	}
	return nil
}

// dialRetry is the pause between dials while a daemon starts.
const dialRetry = 2 * time.Millisecond

// awaitDaemon dials until a daemon answers or the deadline passes. Before
// each dial, while this hook has started nothing, it tries the runtime
// directory's lock: holding it means no daemon runs or is starting, so it
// starts one (once) and hands it the lock. A hook that cannot take the lock
// knows another process holds it — a daemon that is starting, or one that
// is closing — and keeps dialling; should the holder go away without
// listening, the lock comes free and the next try starts a daemon.
func awaitDaemon(cfg Config, sock string, req wire.Request, deadline time.Time) (wire.Response, error) {
	if cfg.Start != nil {
		if err := wire.EnsureDir(cfg.Dir); err != nil {
			return wire.Response{}, fmt.Errorf("hook: %w", err)
		}
	}
	lk := openLock(filepath.Join(cfg.Dir, wire.LockName), cfg.Start != nil)
	defer lk.close()
	started := false
	// Bounded by the run's own budget: one dial per dialRetry at most.
	budget := time.Until(deadline)
	for tries := 0; tries <= int(budget/dialRetry)+1; tries++ {
		if !started {
			switch f, state := lk.try(); state {
			case lockTaken:
				if cfg.Start == nil {
					// Nobody is starting a daemon and we may not (the
					// deferred close releases the lock).
					return wire.Response{}, ErrNoDaemon
				}
				started = true
				lk.handOff()
				if err := cfg.Start(f); err != nil {
					return wire.Response{}, fmt.Errorf("hook: start daemon: %w", err)
				}
			case lockUnusable:
				if cfg.Start == nil {
					return wire.Response{}, ErrNoDaemon
				}
				// No lock to coordinate with (no runtime directory, or a
				// system without flock): start once and let the daemon's own
				// lock settle a race.
				started = true
				if err := cfg.Start(nil); err != nil {
					return wire.Response{}, fmt.Errorf("hook: start daemon: %w", err)
				}
			}
		}
		// The request is encoded again only once a daemon listens, with
		// the budget left then: a large event is not re-encoded per dial.
		resp, err := exchange(sock, deadline, func() ([]byte, error) {
			req.BudgetMillis = int(time.Until(deadline) / time.Millisecond)
			return wire.Encode(req)
		})
		if !errors.Is(err, ErrNoDaemon) {
			return resp, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return wire.Response{}, ErrTimeout
		}
		time.Sleep(min(dialRetry, left))
	}
	return wire.Response{}, ErrTimeout
}

// readEvent reads stdin up to wire.MaxEventBytes, giving up at the deadline (an
// agent that never closes stdin must not hold itself up through us).
func readEvent(r io.Reader, deadline time.Time) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, wire.MaxEventBytes+1))
		ch <- result{b, err}
	}()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case res := <-ch:
		if res.err != nil {
			return nil, fmt.Errorf("hook: read event: %w", res.err)
		}
		if len(res.b) > wire.MaxEventBytes {
			return nil, ErrTooLarge
		}
		return res.b, nil
	case <-t.C:
		return nil, ErrTimeout
	}
}

// exchange makes one dial and, if a daemon listens, one round trip of the
// request frame, which encode makes once the dial has succeeded (a frame
// already encoded is returned as is). No daemon listening is ErrNoDaemon.
func exchange(sock string, deadline time.Time, encode func() ([]byte, error)) (wire.Response, error) {
	if !time.Now().Before(deadline) {
		return wire.Response{}, ErrTimeout
	}
	c, err := dial(sock)
	if err != nil {
		return wire.Response{}, fmt.Errorf("%w: %w", ErrNoDaemon, err)
	}
	defer c.Close()
	frame, err := encode()
	if err != nil {
		return wire.Response{}, err
	}
	resp, err := wire.ExchangeFrame(c, frame, deadline)
	if err != nil {
		return wire.Response{}, fmt.Errorf("%w: %w", ErrBadAnswer, err)
	}
	return resp, nil
}
