package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
