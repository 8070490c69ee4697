package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memrecall/memrecall/agent"
)

// Environment variables the daemon reads (from its own environment, never
// from a hook's input).
const (
	// EnvConfig names the config file, overriding the default location.
	EnvConfig = "MEMRECALL_CONFIG"
	// EnvBaseURL, EnvModel and EnvAPIKey configure the selector when the
	// config file does not.
	EnvBaseURL = "MEMRECALL_BASE_URL"
	EnvModel   = "MEMRECALL_MODEL"
	EnvAPIKey  = "MEMRECALL_API_KEY"
)

// Sentinel errors of LoadConfig.
var (
	// ErrConfigUnsafe: the config file holds an API key and can be read
	// by other users.
	ErrConfigUnsafe = errors.New("daemon: config file readable by others")
	// ErrConfigInvalid: the config file is not valid.
	ErrConfigInvalid = errors.New("daemon: invalid config file")
)

// Config is the memrecall config file (JSON), mode 0600:
//
//	{
//	  "selector": {"base_url": "http://127.0.0.1:8080/v1", "model": "m", "api_key": "…"},
//	  "roots": {"claude": {"project": "/abs/dir", "user": ""}},
//	  "idle_exit": "1h",
//	  "session_idle": "30m"
//	}
type Config struct {
	Selector    SelectorConfig         `json:"selector"`
	Roots       map[string]RootsConfig `json:"roots"`
	IdleExit    Duration               `json:"idle_exit"`
	SessionIdle Duration               `json:"session_idle"`
}

// SelectorConfig configures the OpenAI-compatible selector. Without a
// base URL and a model the daemon runs the deterministic stage only.
type SelectorConfig struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	APIKey  string `json:"api_key"`
}

// RootsConfig overrides the memory roots of one agent. An empty field
// keeps what the agent's own rules find.
type RootsConfig struct {
	Project string `json:"project"`
	User    string `json:"user"`
}

// Duration is a time.Duration written as "90s" or "1h" in JSON.
type Duration time.Duration

// MarshalJSON writes the duration as UnmarshalJSON reads it ("1h0m0s"), so
// a Config written by a program reads back the same. (Without it the
// default encoding is a bare number of nanoseconds, which the reader
// refuses: a config written with json.Marshal was a config error.)
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a Go duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("negative duration %q", s)
	}
	*d = Duration(v)
	return nil
}

// ConfigPath returns the config file's path: $MEMRECALL_CONFIG, else
// $XDG_CONFIG_HOME/memrecall/config.json, else
// ~/.config/memrecall/config.json.
func ConfigPath(getenv func(string) string, home string) string {
	if p := getenv(EnvConfig); p != "" {
		return p
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "memrecall", "config.json")
	}
	return filepath.Join(home, ".config", "memrecall", "config.json")
}

// LoadConfig reads the config file at path; a missing file is the zero
// Config. A file that holds an API key and is readable by group or
// others is refused (ErrConfigUnsafe): the key may already have leaked,
// and using it would hide that. The selector falls back to the
// environment (EnvBaseURL, EnvModel, EnvAPIKey) field by field.
func LoadConfig(path string, getenv func(string) string) (Config, error) {
	data, err := os.ReadFile(path)
	return parseConfig(path, data, err, getenv)
}

// parseConfig is LoadConfig on the result (data, err) of reading path.
func parseConfig(path string, data []byte, err error, getenv func(string) string) (Config, error) {
	var c Config
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Config{}, fmt.Errorf("%w: %w", ErrConfigInvalid, err)
	default:
		if err := json.Unmarshal(data, &c); err != nil {
			return Config{}, fmt.Errorf("%w: %w", ErrConfigInvalid, err)
		}
		for name := range c.Roots {
			if _, err := agent.ParseName(name); err != nil {
				return Config{}, fmt.Errorf("%w: roots: %w", ErrConfigInvalid, err)
			}
		}
		if c.Selector.APIKey != "" {
			fi, err := os.Stat(path)
			if err != nil {
				return Config{}, fmt.Errorf("%w: %w", ErrConfigInvalid, err)
			}
			if fi.Mode().Perm()&0o077 != 0 {
				return Config{}, fmt.Errorf("%w: mode %v, want 0600", ErrConfigUnsafe, fi.Mode().Perm())
			}
		}
	}
	if c.Selector.BaseURL == "" {
		c.Selector.BaseURL = getenv(EnvBaseURL)
	}
	if c.Selector.Model == "" {
		c.Selector.Model = getenv(EnvModel)
	}
	if c.Selector.APIKey == "" {
		c.Selector.APIKey = getenv(EnvAPIKey)
	}
	return c, nil
}

// ConfigErrorKind names the kind of a LoadConfig error for logs and
// status, which must not carry the error's text (it names the file and
// may quote it): "unsafe" (ErrConfigUnsafe), "invalid" or "".
func ConfigErrorKind(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrConfigUnsafe):
		return "unsafe"
	default:
		return "invalid"
	}
}

// ConfigExposed reports whether the config file at path exists and can
// be read by group or others. Without an API key in it that is only worth
// a warning (LoadConfig refuses a key in such a file).
func ConfigExposed(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm()&0o077 != 0
}
