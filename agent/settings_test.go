package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

const userSettings = `{
  "model": "opus",
  "bigNumber": 12345678901234567890,
  "html": "<b>&</b>",
  "hooks": {
    "UserPromptSubmit": [
      {"matcher": "*", "hooks": [{"type": "command", "command": "my-linter --check"}]}
    ],
    "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]
  }
}`

func TestInstallHooks(t *testing.T) {
	cmd := HookCommand("/opt/bin/memrecall", Claude)
	once, err := InstallHooks(Claude, []byte(userSettings), cmd)
	if err != nil {
		t.Fatal(err)
	}
	twice, err := InstallHooks(Claude, once, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(once), string(twice)); diff != "" {
		t.Errorf("second install changed the file (-once +twice):\n%s", diff)
	}
	got := decode(t, once)
	want := decode(t, []byte(userSettings))
	hooks := want["hooks"].(map[string]any)
	for _, ev := range HookEvents(Claude) {
		groups, _ := hooks[ev].([]any)
		hooks[ev] = append(groups, map[string]any{"matcher": "*", "hooks": []any{map[string]any{
			"type": "command", "command": "/opt/bin/memrecall hook --agent claude", "timeout": json.Number("10")}}})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("install (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(once), `"<b>&</b>"`) || !strings.Contains(string(once), "12345678901234567890") {
		t.Errorf("other values not kept as written:\n%s", once)
	}
	// A moved binary replaces the old entry instead of adding a second.
	moved, err := InstallHooks(Claude, once, HookCommand("/new place/memrecall", Claude))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(moved), "hook --agent claude"); n != len(HookEvents(Claude)) {
		t.Errorf("%d memrecall entries after reinstall, want %d:\n%s", n, len(HookEvents(Claude)), moved)
	}
	if !strings.Contains(string(moved), `"'/new place/memrecall' hook --agent claude"`) {
		t.Errorf("path with a space not quoted:\n%s", moved)
	}
	// Uninstall gives back the user's settings.
	back, err := UninstallHooks(Claude, moved, "")
	if err != nil {
		t.Fatal(err)
	}
	if !SameSettings(back, []byte(userSettings)) {
		t.Errorf("uninstall did not restore the settings:\n%s", back)
	}
}

func TestInstallKeepsOtherAgents(t *testing.T) {
	gem, err := InstallHooks(Gemini, nil, HookCommand("/b/memrecall", Gemini))
	if err != nil {
		t.Fatal(err)
	}
	both, err := InstallHooks(Qwen, gem, HookCommand("/b/memrecall", Qwen))
	if err != nil {
		t.Fatal(err)
	}
	noQwen, err := UninstallHooks(Qwen, both, "")
	if err != nil {
		t.Fatal(err)
	}
	if !SameSettings(noQwen, gem) {
		t.Errorf("uninstalling qwen touched gemini's entries:\n%s", noQwen)
	}
	v := decode(t, gem)
	h := v["hooks"].(map[string]any)["AfterTool"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
	if h["timeout"] != json.Number("10000") {
		t.Errorf("gemini timeout %v, want 10000 (milliseconds)", h["timeout"])
	}
	empty, err := UninstallHooks(Gemini, gem, "")
	if err != nil || strings.TrimSpace(string(empty)) != "{}" {
		t.Errorf("uninstall from an install-only file = %q, %v; want {}", empty, err)
	}
}

func TestInstallRefusesUnparsable(t *testing.T) {
	for _, in := range []string{`{"a":`, `[]`, `"x"`, `{"hooks": []}`, `{} {}`, "// comment\n{}"} {
		if _, err := InstallHooks(Claude, []byte(in), "memrecall hook --agent claude"); !errors.Is(err, ErrSettings) {
			t.Errorf("InstallHooks(%q) = %v, want ErrSettings", in, err)
		}
	}
}

func TestIsOurs(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"/usr/local/bin/memrecall hook --agent claude", true},
		{"'/a b/memrecall' hook --agent claude", true},
		{"memrecall hook --agent claude", true},
		{"memrecall hook --agent qwen", false},
		{"other hook --agent claude", false},
		{"memrecall query x", false},
		{"/usr/bin/memrecall-hook --agent claude", true},
		{"/usr/bin/memrecall-hook --agent qwen", false},
		{"/usr/bin/other --agent claude", false},
	}
	if got := HookCommand("/b/memrecall-hook", Gemini); got != "/b/memrecall-hook --agent gemini" {
		t.Errorf("HookCommand(memrecall-hook) = %q", got)
	}
	if !isOurs(map[string]any{"command": "/tmp/mr hook --agent claude"}, Claude, "/tmp/mr hook --agent claude") {
		t.Error("the command being installed is not recognised")
	}
	for _, tt := range tests {
		if got := isOurs(map[string]any{"command": tt.cmd}, Claude, ""); got != tt.want {
			t.Errorf("isOurs(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// topKeys is the top-level key order of a JSON object.
func topKeys(_ *rapid.T, b []byte) []string {
	keys, _ := members(b)
	return keys
}

// TestInstallKeepsKeyOrder: install and uninstall keep the order of the
// file's keys at every level, and the text of every value they do not
// change; a round trip gives back the same settings.
func TestInstallKeepsKeyOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-zA-Z][a-zA-Z0-9_]{0,6}`), 0, 6, rapid.ID[string]).Draw(t, "keys")
		var b strings.Builder
		b.WriteString("{")
		for i, k := range names {
			if k == "hooks" {
				continue
			}
			if b.Len() > 1 {
				b.WriteString(",")
			}
			inner := rapid.SampledFrom([]string{`1`, `1.50`, `"<b>&</b>"`, `{"z": 1, "a": [true, null]}`, `[]`}).Draw(t, fmt.Sprint("v", i))
			fmt.Fprintf(&b, "%q: %s", k, inner)
		}
		b.WriteString("}")
		orig := []byte(b.String())
		for _, a := range []Name{Claude, Gemini, Qwen} {
			inst, err := InstallHooks(a, orig, HookCommand("/b/memrecall", a))
			if err != nil {
				t.Fatalf("install into %s: %v", orig, err)
			}
			want := append(topKeys(t, orig), "hooks")
			if diff := cmp.Diff(want, topKeys(t, inst)); diff != "" {
				t.Fatalf("install into %s reordered keys (-want +got):\n%s\n%s", orig, diff, inst)
			}
			for _, frag := range []string{`"z": 1`, `"a": [`, `1.50`, `"<b>&</b>"`} {
				if strings.Contains(string(orig), frag) && !strings.Contains(string(inst), frag) {
					t.Fatalf("install lost %s as written:\n%s", frag, inst)
				}
			}
			back, err := UninstallHooks(a, inst, "")
			if err != nil {
				t.Fatal(err)
			}
			if !SameSettings(back, orig) {
				t.Fatalf("uninstall after install changed the settings: %s -> %s", orig, back)
			}
			if diff := cmp.Diff(topKeys(t, orig), topKeys(t, back)); diff != "" {
				t.Fatalf("uninstall reordered keys (-want +got):\n%s", diff)
			}
		}
	})
}

// TestInstallRefusesComments: a settings file with comments (JSONC) is
// refused with ErrSettingsComments, and the snippet to add by hand holds
// every event's entry; "//" inside a string is not a comment.
func TestInstallRefusesComments(t *testing.T) {
	for _, in := range []string{"// mine\n{}", "{\"a\": 1 /* x */}", "{\n  \"a\": 1, // why\n  \"b\": 2\n}"} {
		if _, err := InstallHooks(Gemini, []byte(in), "m"); !errors.Is(err, ErrSettingsComments) || !errors.Is(err, ErrSettings) {
			t.Errorf("InstallHooks(%q) = %v, want ErrSettingsComments", in, err)
		}
	}
	if _, err := InstallHooks(Gemini, []byte(`{"url": "http://x/*y*/", "p": "a//b"}`), "m"); err != nil {
		t.Errorf("slashes inside strings refused: %v", err)
	}
	snip, err := HooksSnippet(Gemini, HookCommand("/b/memrecall", Gemini))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range HookEvents(Gemini) {
		if !strings.Contains(snip, `"`+ev+`"`) {
			t.Errorf("snippet lacks %s:\n%s", ev, snip)
		}
	}
}
