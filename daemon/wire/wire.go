// Package wire is the protocol between the memrecall hook and the recall
// daemon, and where the daemon's socket lives. It imports only the
// standard library, so the hook client that links it stays small.
//
// A connection carries one request and one response. Each is a frame: a
// 4-byte big-endian length, then that many bytes of one JSON object.
// Both carry the protocol Version; the side that sees a newer version on
// the other end gives way (docs/decisions/0712-daemon.md).
package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// Version is the protocol and behaviour version. A hook that meets an
// older daemon asks it to exit and starts its own; a daemon that meets a
// newer hook does the same on its side. Bump it when the wire format or
// the daemon's behaviour towards hooks changes.
const Version = 1

// MaxEventBytes bounds one hook event: the hook reads at most this much
// of its stdin and the agent adapters refuse anything longer. Events are a
// few hundred bytes to a few KiB; the bound only keeps a runaway input
// from costing memory.
const MaxEventBytes = 1 << 20

// Frame bounds. A request holds one hook event (at most MaxEventBytes)
// plus a few environment variables.
const (
	MaxRequestBytes  = MaxEventBytes + 64<<10
	MaxResponseBytes = 256 << 10
)

// Ops of a request.
const (
	// OpEvent delivers one hook event and asks for the agent's answer.
	OpEvent = "event"
	// OpStatus asks for the daemon's Status.
	OpStatus = "status"
	// OpExit asks the daemon to exit (a newer hook replacing it).
	OpExit = "exit"
)

// Sentinel errors of the frame reader.
var (
	// ErrFrameTooLarge: a frame announced more bytes than the limit.
	ErrFrameTooLarge = errors.New("wire: frame too large")
	// ErrBadFrame: a frame's body is not the expected JSON object.
	ErrBadFrame = errors.New("wire: bad frame")
)

// Request is what the hook sends.
type Request struct {
	// Version is the sender's Version.
	Version int `json:"v"`
	// Op is OpEvent, OpStatus or OpExit.
	Op string `json:"op"`
	// Agent names the agent whose event this is ("claude", "gemini", "qwen").
	Agent string `json:"agent,omitempty"`
	// Event is the hook's stdin, as the agent wrote it.
	Event json.RawMessage `json:"event,omitempty"`
	// Env holds the hook's environment variables that decide where the
	// agent keeps its memory (HOME, CLAUDE_CONFIG_DIR, QWEN_HOME, …),
	// never secrets: see EnvNames.
	Env map[string]string `json:"env,omitempty"`
	// BudgetMillis is how long the hook waits for the answer from the time
	// it sent the request; the daemon answers within it or not at all.
	BudgetMillis int `json:"budget_ms,omitempty"`
}

// Response is what the daemon answers.
type Response struct {
	// Version is the daemon's Version.
	Version int `json:"v"`
	// Output is what the hook prints on stdout, often nothing.
	Output string `json:"out,omitempty"`
	// Replaced is set when the daemon is older than the hook and exits
	// without serving it: the hook starts a new daemon.
	Replaced bool `json:"replaced,omitempty"`
	// Status answers OpStatus.
	Status *Status `json:"status,omitempty"`
}

// Status is the privacy-safe state of the daemon: counts, hashes and
// durations, never a prompt, a memory's text or title, or a path.
type Status struct {
	PID      int   `json:"pid"`
	Version  int   `json:"version"`
	UptimeMS int64 `json:"uptime_ms"`
	Selector bool  `json:"selector"`
	// ConfigError says the config file could not be used: the daemon
	// answers every event with nothing until it is fixed and restarted.
	ConfigError bool      `json:"config_error,omitempty"`
	Sessions    []Session `json:"sessions"`
	Corpora     []Corpus  `json:"corpora"`
	// WatchRefused counts the corpora the kernel refused a watch
	// (Corpus.WatchRefused). The daemon derives it from Corpora, and
	// keeps it on the wire for readers of `status --json`.
	WatchRefused int `json:"watch_refused,omitempty"`
	// Latencies are the daemon's handling times of recent events, in
	// microseconds, oldest first.
	LatenciesUS []int64 `json:"latencies_us"`
}

// Session is one open session in Status.
type Session struct {
	Agent string `json:"agent"`
	// ID is a short hash of the agent's session id.
	ID string `json:"id"`
	// Corpus is the hash of the corpus the session reads.
	Corpus   string `json:"corpus"`
	Events   int    `json:"events"`
	Plan     bool   `json:"plan_open"`
	IdleMS   int64  `json:"idle_ms"`
	Injected int    `json:"docs_injected"`
}

// Corpus is one pair of memory roots in Status, named by a hash.
type Corpus struct {
	Hash     string `json:"hash"`
	Roots    int    `json:"roots"`
	Docs     int    `json:"docs"`
	Scanned  bool   `json:"scanned"`
	Sessions int    `json:"sessions"`
	// Watched says the corpus holds a file-system watch (inotify): an
	// unchanged tree is answered without a stat.
	Watched bool `json:"watched"`
	// WatchRefused says the kernel refused the corpus a watch (the
	// per-user inotify instance limit, 128 by default, is the usual
	// cause): it revalidates by stat, which costs more per query.
	WatchRefused bool `json:"watch_refused,omitempty"`
}

// Encode returns v as one frame: the 4-byte length, then the JSON body.
// A json.RawMessage inside v that is not valid JSON is an error here, so
// encoding is also the validation of a hook's event.
func Encode(v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("wire: encode: %w", err)
	}
	if uint64(len(body)) > math.MaxUint32 {
		return nil, fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, len(body))
	}
	frame := make([]byte, 4, 4+len(body))
	binary.BigEndian.PutUint32(frame, uint32(len(body)))
	return append(frame, body...), nil
}

// Write writes v as one frame.
func Write(w io.Writer, v any) error {
	frame, err := Encode(v)
	if err != nil {
		return err
	}
	if _, err := w.Write(frame); err != nil {
		return fmt.Errorf("wire: write: %w", err)
	}
	return nil
}

// Read reads one frame of at most limit bytes into v. A frame whose body
// is not one JSON object of v's shape is ErrBadFrame.
func Read(r io.Reader, limit int, v any) error {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return fmt.Errorf("wire: read header: %w", err)
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if uint64(n) > uint64(limit) {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrFrameTooLarge, n, limit)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return fmt.Errorf("wire: read body: %w", err)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: %w", ErrBadFrame, err)
	}
	return nil
}

// Conn is what Exchange needs of a connection: a net.Conn is one, and so
// is the hook's socket, an *os.File on a Unix socket, which spares the hook
// binary package net (docs/decisions/0820-static-hook.md).
type Conn interface {
	io.Reader
	io.Writer
	SetDeadline(t time.Time) error
}

// Exchange is one request and its answer on c, the whole of a connection's
// use: it sets c's deadline, writes req as a frame and reads the Response.
// The hook and the command line's Ask both talk to the daemon through it.
// Exchange does not close c.
func Exchange(c Conn, req Request, deadline time.Time) (Response, error) {
	frame, err := Encode(req)
	if err != nil {
		return Response{}, err
	}
	return ExchangeFrame(c, frame, deadline)
}

// ExchangeFrame is Exchange with the request already encoded (Encode), for
// a caller that validates its request before it dials.
func ExchangeFrame(c Conn, frame []byte, deadline time.Time) (Response, error) {
	if err := c.SetDeadline(deadline); err != nil {
		return Response{}, fmt.Errorf("wire: deadline: %w", err)
	}
	if _, err := c.Write(frame); err != nil {
		return Response{}, fmt.Errorf("wire: write: %w", err)
	}
	var resp Response
	if err := Read(c, MaxResponseBytes, &resp); err != nil {
		return Response{}, err
	}
	return resp, nil
}
