package wire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoundTrip(t *testing.T) {
	req := Request{Version: Version, Op: OpEvent, Agent: "claude", Event: json.RawMessage(`{"a":1}`),
		Env: map[string]string{"HOME": "/h"}, BudgetMillis: 480}
	var buf bytes.Buffer
	if err := Write(&buf, req); err != nil {
		t.Fatal(err)
	}
	var got Request
	if err := Read(&buf, MaxRequestBytes, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(req, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestReadRejects(t *testing.T) {
	frame := func(n uint32, body string) []byte {
		b := binary.BigEndian.AppendUint32(nil, n)
		return append(b, body...)
	}
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, io.EOF},
		{"short header", []byte{0, 0}, io.ErrUnexpectedEOF},
		{"too large", frame(MaxRequestBytes+1, ""), ErrFrameTooLarge},
		{"huge", frame(0xffffffff, ""), ErrFrameTooLarge},
		{"truncated body", frame(10, `{"v":1}`), io.ErrUnexpectedEOF},
		{"not json", frame(3, "abc"), ErrBadFrame},
		{"wrong type", frame(8, `{"v":"x"}`), ErrBadFrame},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Request
			if err := Read(bytes.NewReader(tt.in), MaxRequestBytes, &r); !errors.Is(err, tt.want) {
				t.Errorf("Read = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestEnvNamesForwardsNoSecrets(t *testing.T) {
	got := EnvNames([]string{
		"HOME=/h", "PATH=/bin", "CLAUDE_CONFIG_DIR=/c", "QWEN_HOME=/q", "QWEN_CODE_MEMORY_LOCAL=1",
		"GEMINI_API_KEY=k", "ANTHROPIC_API_KEY=k", "CLAUDE_CODE_OAUTH_TOKEN=t", "QWEN_AUTH=x",
		"MEMRECALL_API_KEY=k", "XDG_CONFIG_HOME=/x", "broken",
	})
	want := map[string]string{"HOME": "/h", "CLAUDE_CONFIG_DIR": "/c", "QWEN_HOME": "/q",
		"QWEN_CODE_MEMORY_LOCAL": "1", "XDG_CONFIG_HOME": "/x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EnvNames (-want +got):\n%s", diff)
	}
}

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := Dir(env(map[string]string{EnvDir: "/r", "XDG_RUNTIME_DIR": "/x"})); got != "/r" {
		t.Errorf("Dir with %s = %q", EnvDir, got)
	}
	if got := Dir(env(map[string]string{"XDG_RUNTIME_DIR": "/x"})); got != "/x/memrecall" {
		t.Errorf("Dir with XDG_RUNTIME_DIR = %q", got)
	}
}

func TestEnsureDirCloses(t *testing.T) {
	d := t.TempDir() + "/rt"
	if err := EnsureDir(d); err != nil {
		t.Fatal(err)
	}
	if err := chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := EnsureDir(d); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, d); m != 0o700 {
		t.Fatalf("mode %v, want 0700", m)
	}
}

// FuzzRead: no frame makes Read panic or allocate past its limit; what it
// accepts re-encodes and reads back the same.
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	Write(&buf, Request{Version: Version, Op: OpEvent, Agent: "gemini", Event: json.RawMessage(`{"session_id":"s"}`)})
	f.Add(buf.Bytes())
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Request
		if err := Read(bytes.NewReader(data), 1<<16, &r); err != nil {
			return
		}
		var b bytes.Buffer
		if err := Write(&b, r); err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		var again Request
		if err := Read(&b, MaxRequestBytes, &again); err != nil {
			t.Fatalf("read back: %v", err)
		}
		if r.Version != again.Version || r.Op != again.Op || r.Agent != again.Agent {
			t.Fatalf("round trip changed the request: %+v vs %+v", r, again)
		}
	})
}

// FuzzEncodeEvent: Encode is the hook's only validation of its stdin, so
// it must refuse exactly what is not JSON, and what it accepts must read
// back as the same JSON value.
func FuzzEncodeEvent(f *testing.F) {
	for _, s := range []string{`{"session_id":"s","prompt":"deploy"}`, `{"session_id":`, ``, `[1,2]`, "\"\xff\"", `{"a":1} {"b":2}`, ` {"a" : [ 1 , 2 ] } `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, event []byte) {
		frame, err := Encode(Request{Version: Version, Op: OpEvent, Event: event})
		if len(event) == 0 {
			// omitempty: no event at all, which the hook refuses itself.
			if err != nil {
				t.Fatalf("Encode without an event: %v", err)
			}
			return
		}
		if valid := json.Valid(event); valid != (err == nil) {
			t.Fatalf("json.Valid = %v but Encode error = %v", valid, err)
		}
		if err != nil {
			return
		}
		var r Request
		if err := Read(bytes.NewReader(frame), len(frame), &r); err != nil {
			t.Fatalf("read back: %v", err)
		}
		want, err1 := decodeNumbers(event)
		got, err2 := decodeNumbers(r.Event)
		if err1 != nil || err2 != nil {
			t.Fatalf("event %q read back as %q", event, r.Event)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("event changed (-sent +read):\n%s", diff)
		}
	})
}

// decodeNumbers decodes one JSON value, numbers as written (1E700 is a
// valid JSON number that no float64 holds).
func decodeNumbers(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// TestEnsureDirRefusesForeignOwner: a runtime directory someone else made
// first (in a shared temp directory) is refused, not used. Needs root to
// give the directory away.
func TestEnsureDirRefusesForeignOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to chown a directory to another user")
	}
	d := t.TempDir() + "/rt"
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(d, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := EnsureDir(d); !errors.Is(err, ErrUnsafeDir) {
		t.Fatalf("EnsureDir on a directory of uid 65534 = %v, want ErrUnsafeDir", err)
	}
}
