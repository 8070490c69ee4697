// Package agentpins is the one place that pins the versions of the coding
// agents memrecall is tested and measured against (pins.txt, which
// e2e/install.sh reads as well): the end-to-end tests install and check
// them, and the peer benchmark installs Qwen Code from it.
package agentpins

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

//go:embed pins.txt
var pinsTxt string

// Pin is one agent's npm package at its pinned version.
type Pin struct {
	// Name is memrecall's name for the agent: "claude", "qwen", "gemini".
	Name string
	// Package is the npm package, Version its pinned version.
	Package, Version string
}

// Spec is the pin as npm install takes it: package@version.
func (p Pin) Spec() string { return p.Package + "@" + p.Version }

// Manifest is the package.json of the pin's package in an npm install
// prefix (`npm install --prefix prefix`).
func (p Pin) Manifest(prefix string) string {
	return filepath.Join(prefix, "node_modules", filepath.FromSlash(p.Package), "package.json")
}

// Installed returns the version of the pin's package installed under the
// npm prefix, as its package.json states it, whichever version that is. It
// returns an error when there is no readable package.json or it states no
// version.
func (p Pin) Installed(prefix string) (string, error) {
	raw, err := os.ReadFile(p.Manifest(prefix))
	if err != nil {
		return "", fmt.Errorf("agentpins: %s: %w", p.Package, err)
	}
	var meta struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		return "", fmt.Errorf("agentpins: %s: package.json: %w", p.Package, err)
	}
	if meta.Version == "" {
		return "", fmt.Errorf("agentpins: %s: package.json states no version", p.Package)
	}
	return meta.Version, nil
}

// ErrUnknown is returned for an agent pins.txt does not list.
var ErrUnknown = errors.New("agentpins: no pin for agent")

// ErrSyntax is returned for a line of pins.txt that is not three fields.
var ErrSyntax = errors.New("agentpins: malformed pins.txt line")

// All returns every pin, in the file's order.
func All() ([]Pin, error) { return parse(pinsTxt) }

// Get returns the pin of the named agent.
func Get(name string) (Pin, error) {
	pins, err := All()
	if err != nil {
		return Pin{}, err
	}
	for _, p := range pins {
		if p.Name == name {
			return p, nil
		}
	}
	return Pin{}, fmt.Errorf("%w %q", ErrUnknown, name)
}

// parse reads pins.txt's format: "#" comments and blank lines are
// skipped; every other line is "name package version".
func parse(text string) ([]Pin, error) {
	var pins []Pin
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("%w %d: %q", ErrSyntax, i+1, line)
		}
		pins = append(pins, Pin{Name: f[0], Package: f[1], Version: f[2]})
	}
	return pins, nil
}
