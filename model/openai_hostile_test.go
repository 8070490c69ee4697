package model

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/memrecall/memrecall/telemetry"
)

// longKey has the shape of a real provider key: 54 characters.
const longKey = "sk-proj-4fQ9zT2mW8xK1vB7nR3cY6hJ0pL5sD9gA2eU8iO4tN1bQz"

// keyFragments reports every piece of key at least minKeyFragment long
// that occurs in s.
func keyFragments(s, key string) []string {
	var found []string
	for i := 0; i+minKeyFragment <= len(key); i++ {
		if f := key[i : i+minKeyFragment]; strings.Contains(s, f) {
			found = append(found, f)
		}
	}
	return found
}

// TestOpenAIKeyNeverInStatusError is the hostile suite's attack: a provider
// error message of about 150 characters followed by the key, which the cut
// at 200 characters used to leave 50 of the key's characters in. Variants
// echo a fragment only, the key twice, and the key split by a newline.
func TestOpenAIKeyNeverInStatusError(t *testing.T) {
	if len(longKey) != 54 {
		t.Fatalf("longKey is %d characters", len(longKey))
	}
	pad := strings.Repeat("x", 150)
	tests := []struct{ name, message string }{
		{"key after 150 chars", pad + " " + longKey},
		{"key at the cut", strings.Repeat("y", 180) + longKey},
		{"fragment only", "bad key " + longKey[5:35] + " rejected"},
		{"tail fragment", pad + longKey[40:]},
		{"twice", longKey + " and " + longKey},
		{"split by newline", "key " + longKey[:27] + "\n" + longKey[27:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := fixture()
			body := `{"error":{"message":` + quoteJSON(tt.message) + `}}`
			srv, _ := serve(t, reply{401, body})
			sel, err := OpenAI(OpenAIConfig{BaseURL: srv.URL, Model: "m", APIKey: longKey, HTTPClient: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			_, err = sel.Select(context.Background(), Request{Manifest: m})
			if !errors.Is(err, ErrStatus) {
				t.Fatalf("err = %v, want ErrStatus", err)
			}
			if f := keyFragments(err.Error(), longKey); len(f) > 0 {
				t.Errorf("error %q leaks key fragments %q", err, f)
			}
			if !strings.Contains(err.Error(), "[redacted]") {
				t.Errorf("error %q does not mark the redaction", err)
			}
		})
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestRedactKey(t *testing.T) {
	tests := []struct{ msg, key, want string }{
		{"plain", "", "plain"},
		{"no key here", longKey, "no key here"},
		{"k=" + longKey + ".", longKey, "k=[redacted]."},
		{"short " + longKey[:minKeyFragment-1], longKey, "short " + longKey[:minKeyFragment-1]},
		{"frag " + longKey[10:10+minKeyFragment] + "!", longKey, "frag [redacted]!"},
		{"tiny key abc here", "abc", "tiny key [redacted] here"},
	}
	for _, tt := range tests {
		if got := redactKey(tt.msg, tt.key); got != tt.want {
			t.Errorf("redactKey(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// TestOpenAIRefusesRedirects: an endpoint answering 301/302/303/307/308 to
// another server on the same host must not get the key, the query or the
// manifest forwarded there; the error is ErrRedirect.
func TestOpenAIRefusesRedirects(t *testing.T) {
	for _, code := range []int{301, 302, 303, 307, 308} {
		var leaked atomic.Int32
		target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			leaked.Add(1)
			io.Copy(io.Discard, r.Body)
			io.WriteString(w, completion(`{"selected_memories":[]}`))
		}))
		redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			http.Redirect(w, r, target.URL+"/v1/chat/completions", code)
		}))
		m, _ := fixture()
		sel, err := OpenAI(OpenAIConfig{BaseURL: redirector.URL + "/v1", Model: "m", APIKey: longKey, HTTPClient: redirector.Client()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = sel.Select(context.Background(), Request{Query: "secret query", Manifest: m})
		redirector.Close()
		target.Close()
		if !errors.Is(err, ErrRedirect) || ErrorKindOf(err) != telemetry.ErrorRedirect {
			t.Errorf("%d: err = %v, want ErrRedirect", code, err)
		}
		if n := leaked.Load(); n != 0 {
			t.Errorf("%d: the redirect target got %d requests", code, n)
		}
		if err != nil && strings.Contains(err.Error(), target.URL) {
			t.Errorf("%d: error names the redirect target: %v", code, err)
		}
	}
}

// TestOpenAIRedirectClientNotMutated: the host's client keeps its own
// redirect policy; the adapter uses a copy.
func TestOpenAIRedirectClientNotMutated(t *testing.T) {
	c := &http.Client{}
	if _, err := OpenAI(OpenAIConfig{BaseURL: "http://127.0.0.1:1", Model: "m", HTTPClient: c}); err != nil {
		t.Fatal(err)
	}
	if c.CheckRedirect != nil {
		t.Errorf("OpenAI changed the caller's http.Client")
	}
}
