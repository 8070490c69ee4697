package daemon

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestLoadConfig(t *testing.T) {
	env := map[string]string{EnvBaseURL: "http://127.0.0.1:9/v1", EnvModel: "env-model", EnvAPIKey: "env-key"}
	getenv := func(k string) string { return env[k] }
	dir := t.TempDir()
	write := func(name, body string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		path    string
		want    Config
		wantErr error
	}{
		{"missing file: environment only", filepath.Join(dir, "none.json"),
			Config{Selector: SelectorConfig{BaseURL: "http://127.0.0.1:9/v1", Model: "env-model", APIKey: "env-key"}}, nil},
		{"file wins field by field", write("a.json", `{"selector":{"model":"file-model","api_key":"file-key"},"roots":{"claude":{"project":"/p"}},"idle_exit":"90s"}`, 0o600),
			Config{Selector: SelectorConfig{BaseURL: "http://127.0.0.1:9/v1", Model: "file-model", APIKey: "file-key"},
				Roots: map[string]RootsConfig{"claude": {Project: "/p"}}, IdleExit: Duration(90 * time.Second)}, nil},
		{"key in a group-readable file", write("b.json", `{"selector":{"api_key":"k"}}`, 0o640), Config{}, ErrConfigUnsafe},
		{"no key in a readable file is allowed", write("c.json", `{"session_idle":"1m"}`, 0o644),
			Config{Selector: SelectorConfig{BaseURL: "http://127.0.0.1:9/v1", Model: "env-model", APIKey: "env-key"}, SessionIdle: Duration(time.Minute)}, nil},
		{"not JSON", write("d.json", `{"selector":`, 0o600), Config{}, ErrConfigInvalid},
		{"unknown agent in roots", write("e.json", `{"roots":{"codex":{"project":"/p"}}}`, 0o600), Config{}, ErrConfigInvalid},
		{"bad duration", write("f.json", `{"idle_exit":"soon"}`, 0o600), Config{}, ErrConfigInvalid},
		{"negative duration", write("g.json", `{"idle_exit":"-1s"}`, 0o600), Config{}, ErrConfigInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LoadConfig(tt.path, getenv)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("LoadConfig error = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LoadConfig (-want +got):\n%s", diff)
			}
		})
	}
	if !ConfigExposed(filepath.Join(dir, "c.json")) || ConfigExposed(filepath.Join(dir, "a.json")) || ConfigExposed(filepath.Join(dir, "none.json")) {
		t.Error("ConfigExposed does not follow the file modes")
	}
}

func TestConfigPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	got := []string{
		ConfigPath(env(map[string]string{EnvConfig: "/c.json", "XDG_CONFIG_HOME": "/x"}), "/h"),
		ConfigPath(env(map[string]string{"XDG_CONFIG_HOME": "/x"}), "/h"),
		ConfigPath(env(nil), "/h"),
	}
	want := []string{"/c.json", "/x/memrecall/config.json", "/h/.config/memrecall/config.json"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ConfigPath (-want +got):\n%s", diff)
	}
}

// TestConfigRoundTrips: a Config written with encoding/json (as the
// benchmarks and tests write theirs) loads back as the same Config.
// Before Duration had MarshalJSON, any such file was a config error.
func TestConfigRoundTrips(t *testing.T) {
	dir := t.TempDir()
	rapid.Check(t, func(t *rapid.T) {
		var agents []string
		for _, a := range []string{"claude", "gemini", "qwen"} {
			if rapid.Bool().Draw(t, a) {
				agents = append(agents, a)
			}
		}
		c := Config{
			Selector: SelectorConfig{
				BaseURL: rapid.SampledFrom([]string{"", "http://127.0.0.1:8080/v1"}).Draw(t, "url"),
				Model:   rapid.StringMatching(`[a-z0-9-]{0,8}`).Draw(t, "model"),
				APIKey:  rapid.StringMatching(`[A-Za-z0-9]{0,12}`).Draw(t, "key"),
			},
			IdleExit:    Duration(rapid.Int64Range(0, int64(48*time.Hour)).Draw(t, "idle")),
			SessionIdle: Duration(rapid.Int64Range(0, int64(48*time.Hour)).Draw(t, "session_idle")),
		}
		if len(agents) > 0 {
			c.Roots = map[string]RootsConfig{}
			for _, a := range agents {
				c.Roots[a] = RootsConfig{Project: "/p/" + a, User: rapid.SampledFrom([]string{"", "/u"}).Draw(t, "user")}
			}
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "config.json")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := LoadConfig(p, func(string) string { return "" })
		if err != nil {
			t.Fatalf("LoadConfig of %s: %v", b, err)
		}
		if diff := cmp.Diff(c, got); diff != "" {
			t.Fatalf("round trip of %s (-wrote +loaded):\n%s", b, diff)
		}
	})
}
