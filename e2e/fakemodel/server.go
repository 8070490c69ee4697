// Package fakemodel holds fake model servers for the end-to-end tests: the
// Anthropic Messages API (Claude Code), OpenAI chat completions (Qwen Code
// and memrecall's own selector) and the Gemini API (Gemini CLI). Each
// listens on 127.0.0.1 only, logs every request body it receives, answers
// from a Script, and is bounded: a maximum number of requests, a maximum
// body size and per-request timeouts.
//
// The answers are decided from the request alone, not from a counter, so a
// side request an agent sends (a title, a classifier, a recall selector)
// never shifts the scripted conversation: a request whose conversation
// already holds a tool result gets the final text; a request that offers
// the scripted tool gets the tool call; anything else gets plain text.
package fakemodel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Bounds of one server. Zero fields take the defaults.
type Bounds struct {
	// MaxRequests is how many requests the server answers; later ones get
	// 503 and are counted in Overflow. Default 200.
	MaxRequests int
	// MaxBody is the largest request body read. Default 32 MiB.
	MaxBody int64
	// Timeout bounds reading a request and writing its answer, scripted
	// delays included. Default 60 s.
	Timeout time.Duration
}

func (b Bounds) withDefaults() Bounds {
	if b.MaxRequests <= 0 {
		b.MaxRequests = 200
	}
	if b.MaxBody <= 0 {
		b.MaxBody = 32 << 20
	}
	if b.Timeout <= 0 {
		b.Timeout = 60 * time.Second
	}
	return b
}

// Request is one logged request.
type Request struct {
	// Seq numbers the requests of one server from 0 in arrival order.
	Seq int
	// At is when the body had been read.
	At     time.Time
	Method string
	// Path is the URL path; Query its raw query string.
	Path  string
	Query string
	Body  []byte
	// Kind is how the server classified the request (see the Kind
	// constants); Reply what it answered.
	Kind  Kind
	Reply string
	// Tools are the names of the tools the request offered the model.
	Tools []string
	// ToolResult reports whether the conversation held a tool result.
	ToolResult bool
}

// Offers reports whether the request offered the model a tool of that name.
func (r Request) Offers(tool string) bool {
	for _, t := range r.Tools {
		if t == tool {
			return true
		}
	}
	return false
}

// answer is what a handler reports about the request it answered.
type answer struct {
	kind       Kind
	reply      string
	tools      []string
	toolResult bool
}

// Kind classifies a logged request.
type Kind string

// The kinds of request the fakes tell apart.
const (
	// KindToolCall: the request offered the scripted tool and got the call.
	KindToolCall Kind = "tool-call"
	// KindFinal: the conversation held a tool result; it got the final text.
	KindFinal Kind = "final"
	// KindText: a request without the scripted tool (a tool-free turn or a
	// side request) got plain text.
	KindText Kind = "text"
	// KindSelector: a recall selector request (Qwen Code's
	// respond_in_schema, memrecall's memory_selection) got a selection.
	KindSelector Kind = "selector"
	// KindOther: a path the fake does not serve (404) or a malformed body
	// (400).
	KindOther Kind = "other"
)

// ErrClosed is returned by Start after Close.
var ErrClosed = errors.New("fakemodel: server closed")

// handler answers one request whose body has been read and describes it
// for the log.
type handler func(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte) answer

// Server is one fake endpoint on 127.0.0.1.
type Server struct {
	// URL is the base URL, "http://127.0.0.1:PORT".
	URL string

	bounds Bounds
	handle handler
	srv    *http.Server
	done   chan struct{}

	mu       sync.Mutex
	reqs     []Request
	overflow int
}

// start listens on 127.0.0.1:0 and serves h until Close.
func start(b Bounds, h handler) (*Server, error) {
	b = b.withDefaults()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakemodel: listen: %w", err)
	}
	s := &Server{
		URL:    "http://" + ln.Addr().String(),
		bounds: b,
		handle: h,
		done:   make(chan struct{}),
	}
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.serve),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       b.Timeout,
		WriteTimeout:      b.Timeout + 5*time.Second,
		IdleTimeout:       b.Timeout,
	}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // returns http.ErrServerClosed after Close
	}()
	return s, nil
}

// Close stops the server and waits for its serve loop; open requests are
// cut. It is safe to call twice.
func (s *Server) Close() {
	_ = s.srv.Close()
	<-s.done
}

// Requests returns a copy of the log so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.reqs))
	copy(out, s.reqs)
	return out
}

// Overflow is the number of requests refused because MaxRequests was
// reached. A test that sees a non-zero value ran away.
func (s *Server) Overflow() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.overflow
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), s.bounds.Timeout)
	defer cancel()
	body, err := io.ReadAll(io.LimitReader(r.Body, s.bounds.MaxBody+1))
	if err != nil || int64(len(body)) > s.bounds.MaxBody {
		http.Error(w, "fakemodel: body unreadable or too large", http.StatusRequestEntityTooLarge)
		return
	}
	s.mu.Lock()
	if len(s.reqs) >= s.bounds.MaxRequests {
		s.overflow++
		s.mu.Unlock()
		http.Error(w, "fakemodel: request limit reached", http.StatusServiceUnavailable)
		return
	}
	seq := len(s.reqs)
	s.reqs = append(s.reqs, Request{
		Seq: seq, At: time.Now(), Method: r.Method,
		Path: r.URL.Path, Query: r.URL.RawQuery, Body: body,
	})
	s.mu.Unlock()

	a := s.handle(ctx, w, r, body)

	s.mu.Lock()
	s.reqs[seq].Kind = a.kind
	s.reqs[seq].Reply = a.reply
	s.reqs[seq].Tools = a.tools
	s.reqs[seq].ToolResult = a.toolResult
	s.mu.Unlock()
}

// decode parses a request body into q. A body that is not JSON gets a 400
// and decode returns what the log records of it, and false.
func decode(w http.ResponseWriter, body []byte, q any) (answer, bool) {
	if err := json.Unmarshal(body, q); err != nil {
		http.Error(w, "fakemodel: bad JSON", http.StatusBadRequest)
		return answer{kind: KindOther, reply: "400"}, false
	}
	return answer{}, true
}

// sleep waits d or until ctx ends; it reports whether d elapsed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
