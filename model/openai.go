package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Default size limits of the OpenAI adapter. The manifest is at most
// MaxManifestBytes, so a request stays well under DefaultMaxRequestBytes
// unless the query is pathological; an answer of five paths is a few hundred
// bytes, and the response limit leaves room for provider metadata.
const (
	DefaultMaxRequestBytes  = 64 << 10
	DefaultMaxResponseBytes = 256 << 10
	// maxErrorBodyBytes bounds what is read of a non-2xx body, which is
	// only searched for the provider's error message.
	maxErrorBodyBytes = 16 << 10
)

// OpenAIConfig configures the OpenAI-compatible chat-completions adapter
// (OpenAI, Qwen/DashScope compatible mode, vLLM, Ollama, …).
type OpenAIConfig struct {
	// BaseURL is the API root; the adapter POSTs to BaseURL +
	// "/chat/completions", e.g. "https://api.openai.com/v1" or
	// "http://localhost:11434/v1". Required.
	BaseURL string
	// Model is the model name sent in the request. Required.
	Model string
	// APIKey is sent as "Authorization: Bearer <key>" when non-empty. It is
	// never included in an error.
	APIKey string
	// HTTPClient sends the request; nil means http.DefaultClient. Deadlines
	// come from the context, so the client needs no timeout of its own.
	// The adapter uses a copy that refuses redirects (ErrRedirect): a
	// selector endpoint has no business redirecting, and following one
	// would send the key, the query and the manifest elsewhere.
	HTTPClient *http.Client
	// MaxRequestBytes bounds the encoded request body; a larger request is
	// not sent (ErrRequestTooLarge). Zero means DefaultMaxRequestBytes.
	MaxRequestBytes int
	// MaxResponseBytes bounds the response body read; a larger response is
	// an error (ErrResponseTooLarge). Zero means DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// OpenAI returns a Selector that asks an OpenAI-compatible chat-completions
// endpoint, with temperature 0 and a strict JSON schema for the answer
// {"selected_memories": [...]}. An unusable configuration (no BaseURL, no
// Model, a BaseURL that is not an absolute http or https URL) fails here
// with ErrConfig, so a host finds out at wiring time instead of seeing
// every query fall back to the heuristic.
func OpenAI(cfg OpenAIConfig) (Selector, error) {
	if cfg.BaseURL == "" || cfg.Model == "" {
		return nil, fmt.Errorf("%w: BaseURL and Model are required", ErrConfig)
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The URL's own text may carry credentials: it is not repeated.
		return nil, fmt.Errorf("%w: BaseURL must be an absolute http or https URL", ErrConfig)
	}
	client := http.DefaultClient
	if cfg.HTTPClient != nil {
		client = cfg.HTTPClient
	}
	noRedirect := *client // a copy: the host's client keeps its policy
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cfg.HTTPClient = &noRedirect
	if cfg.MaxRequestBytes <= 0 {
		cfg.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	return &openAISelector{cfg: cfg}, nil
}

type openAISelector struct {
	cfg OpenAIConfig
}

// Select implements Selector.
func (s *openAISelector) Select(ctx context.Context, req Request) ([]string, error) {
	body, err := encodeChatRequest(s.cfg.Model, req)
	if err != nil {
		return nil, err
	}
	if len(body) > s.cfg.MaxRequestBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrRequestTooLarge, len(body), s.cfg.MaxRequestBytes)
	}
	url := strings.TrimRight(s.cfg.BaseURL, "/") + "/chat/completions"
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if s.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+s.cfg.APIKey)
	}
	resp, err := s.cfg.HTTPClient.Do(hreq)
	if err != nil {
		return nil, s.transportError(ctx, err)
	}
	defer resp.Body.Close()

	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		// Not followed (see OpenAI); the Location is not repeated.
		return nil, fmt.Errorf("%w: HTTP status %d", ErrRedirect, resp.StatusCode)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// The status is the error; the body only adds the provider's
		// message, so an unreadable or oversized one is not a second error.
		raw, _ := readLimited(resp.Body, min(s.cfg.MaxResponseBytes, maxErrorBodyBytes))
		// Redact before the cut (a cut key no longer matches whole) and
		// again after flattening, which can join pieces split by a newline.
		msg := s.redact(flatten(s.redact(providerMessage(raw)), maxProviderMessageRunes))
		return nil, &StatusError{StatusCode: resp.StatusCode, Message: msg}
	}
	raw, err := readLimited(resp.Body, s.cfg.MaxResponseBytes)
	if err != nil {
		if errors.Is(err, ErrResponseTooLarge) {
			return nil, err
		}
		return nil, s.transportError(ctx, err)
	}
	return ParseChatResponse(raw)
}

// transportError wraps a failed send or read. A context error is kept
// reachable with errors.Is so the caller can tell cancellation and deadline
// from a network failure; the API key is redacted in case a proxy or
// transport echoed a header.
func (s *openAISelector) transportError(ctx context.Context, err error) error {
	msg := s.redact(err.Error())
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%w: %s: %w", ErrTransport, msg, cerr)
	}
	return fmt.Errorf("%w: %s", ErrTransport, msg)
}

func (s *openAISelector) redact(msg string) string { return redactKey(msg, s.cfg.APIKey) }

// minKeyFragment is the shortest run of the API key's characters that is
// redacted on its own: a provider or proxy may echo part of the key
// ("sk-...abcd", a key cut by its own length limit), and any long run of a
// secret narrows the search for the rest. Shorter runs are too likely to be
// ordinary text.
const minKeyFragment = 8

// redactKey replaces the key, and every run of at least minKeyFragment
// characters that also occurs in the key (the whole key if it is shorter),
// with "[redacted]". It runs on error paths only; the cost is
// O(len(msg)·len(key)) comparisons.
func redactKey(msg, key string) string {
	if key == "" {
		return msg
	}
	minLen := min(minKeyFragment, len(key))
	var b strings.Builder
	last := 0
	for i := 0; i+minLen <= len(msg); {
		n := longestKeyRun(msg[i:], key)
		if n < minLen {
			i++
			continue
		}
		b.WriteString(msg[last:i])
		b.WriteString("[redacted]")
		i += n
		last = i
	}
	if last == 0 {
		return msg
	}
	b.WriteString(msg[last:])
	return b.String()
}

// longestKeyRun returns the length of the longest prefix of s that occurs
// somewhere in key.
func longestKeyRun(s, key string) int {
	best := 0
	for k := 0; k < len(key) && len(key)-k > best; k++ {
		n := 0
		for n < len(s) && k+n < len(key) && s[n] == key[k+n] {
			n++
		}
		best = max(best, n)
	}
	return best
}

// readLimited reads r up to limit bytes and fails with ErrResponseTooLarge
// if there is more: one extra byte is read to tell "exactly limit" from
// "over".
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(raw)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrResponseTooLarge, limit)
	}
	return raw, nil
}

// maxProviderMessageRunes bounds the provider message kept in a
// StatusError.
const maxProviderMessageRunes = 200

// providerMessage extracts {"error":{"message":…}} from an error response,
// whole: the caller redacts it, then cuts it to maxProviderMessageRunes on
// one line. Anything else yields "": a raw body may echo the prompt, so it
// is never kept.
func providerMessage(raw []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return ""
	}
	return e.Error.Message
}
