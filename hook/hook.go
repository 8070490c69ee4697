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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
)

// Budget is the longest a hook holds the agent, daemon start included.
// See docs/decisions/0711-budgets.md: a warm round trip takes a few
// milliseconds and the engine's own initial wait is at most 100 ms; the
// rest is room for starting the daemon on the first event of the day.
const Budget = 500 * time.Millisecond

// MaxEventBytes is the most stdin the hook reads; a longer event is
// dropped whole (same bound as agent.MaxEventBytes).
const MaxEventBytes = 1 << 20

// Sentinel errors of Run; the command prints nothing for any of them.
var (
	ErrTooLarge  = errors.New("hook: event too large")
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
	// Start starts a daemon in the background and returns at once. Nil:
	// never start one.
	Start func() error
	// Now is the monotonic clock; nil is time.Now.
	Now func() time.Time
	// Version is the protocol version the hook claims; zero is
	// wire.Version. Tests claim a newer one to replace a daemon.
	Version int
}

// Run handles one hook event. It returns why nothing was printed, for
// tests and debugging; the command ignores it and exits 0.
func Run(cfg Config) error {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	budget := cfg.Budget
	if budget <= 0 {
		budget = Budget
	}
	deadline := now().Add(budget)

	event, err := readEvent(cfg.Stdin, deadline)
	if err != nil {
		return err
	}
	if !json.Valid(event) {
		return fmt.Errorf("hook: event is not JSON")
	}
	version := cfg.Version
	if version == 0 {
		version = wire.Version
	}
	req := wire.Request{
		Version: version, Op: wire.OpEvent, Agent: cfg.Agent,
		Event: event, Env: wire.EnvNames(cfg.Environ),
	}
	sock := filepath.Join(cfg.Dir, wire.SocketName)
	started := false
	// At most two rounds: the second only after starting a daemon (none
	// answered, or an older one gave way).
	for round := 0; round < 2; round++ {
		resp, err := roundTrip(sock, req, deadline, now, started)
		gone := errors.Is(err, ErrNoDaemon) || err == nil && resp.Replaced
		if gone && cfg.Start != nil && !started {
			started = true
			if err := cfg.Start(); err != nil {
				return fmt.Errorf("hook: start daemon: %w", err)
			}
			continue
		}
		if err != nil {
			return err
		}
		if resp.Output != "" {
			if _, err := io.WriteString(cfg.Stdout, resp.Output); err != nil {
				return fmt.Errorf("hook: write answer: %w", err)
			}
		}
		return nil
	}
	return ErrNoDaemon
}

// readEvent reads stdin up to MaxEventBytes, giving up at the deadline (an
// agent that never closes stdin must not hold itself up through us).
func readEvent(r io.Reader, deadline time.Time) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, MaxEventBytes+1))
		ch <- result{b, err}
	}()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case res := <-ch:
		if res.err != nil {
			return nil, fmt.Errorf("hook: read event: %w", res.err)
		}
		if len(res.b) > MaxEventBytes {
			return nil, ErrTooLarge
		}
		return res.b, nil
	case <-t.C:
		return nil, ErrTimeout
	}
}

// dialRetry is the pause between dials while a daemon starts.
const dialRetry = 2 * time.Millisecond

// roundTrip sends req and reads the answer. When wait is false a daemon
// that is not there is ErrNoDaemon at once; when it is true (this hook
// has just started one) the dial is retried until the deadline.
func roundTrip(sock string, req wire.Request, deadline time.Time, now func() time.Time, wait bool) (wire.Response, error) {
	var c net.Conn
	var err error
	// Bounded: one dial when no daemon is being started; otherwise one
	// per dialRetry until the deadline, and never more than budget/retry.
	for tries := 0; tries < int(Budget/dialRetry)+1; tries++ {
		left := deadline.Sub(now())
		if left <= 0 {
			return wire.Response{}, ErrTimeout
		}
		c, err = net.DialTimeout("unix", sock, left)
		if err == nil {
			break
		}
		if !wait {
			return wire.Response{}, fmt.Errorf("%w: %w", ErrNoDaemon, err)
		}
		time.Sleep(min(dialRetry, left))
	}
	if c == nil {
		return wire.Response{}, ErrTimeout
	}
	defer c.Close()
	left := deadline.Sub(now())
	if left <= 0 {
		return wire.Response{}, ErrTimeout
	}
	c.SetDeadline(deadline)
	req.BudgetMillis = int(left / time.Millisecond)
	if err := wire.Write(c, req); err != nil {
		return wire.Response{}, err
	}
	var resp wire.Response
	if err := wire.Read(c, wire.MaxResponseBytes, &resp); err != nil {
		return wire.Response{}, fmt.Errorf("%w: %w", ErrBadAnswer, err)
	}
	return resp, nil
}
