package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/internal/testenv"
)

// TestHookFailsOpen: whatever the input and with no daemon to ask (and
// none started: --no-start), the hook prints nothing and exits 0.
func TestHookFailsOpen(t *testing.T) {
	t.Setenv("MEMRECALL_RUNTIME_DIR", testenv.ShortDir(t))
	inputs := map[string]string{
		"good":      `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"deploy","cwd":"/"}`,
		"malformed": `{"session_id":`,
		"empty":     "",
		"10 MB":     `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"` + strings.Repeat("x", 10<<20) + `"}`,
	}
	for name, in := range inputs {
		for _, a := range []string{"claude", "gemini", "qwen", "nobody"} {
			var out, errOut bytes.Buffer
			code := runHook([]string{"--agent", a, "--no-start"}, strings.NewReader(in), &out, &errOut)
			if code != 0 || out.Len() != 0 || errOut.Len() != 0 {
				t.Errorf("%s/%s: exit %d, stdout %q, stderr %q; want 0 and nothing", name, a, code, out.String(), errOut.String())
			}
		}
	}
}

func TestInstallCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(`{"theme":"dark"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := runInstall([]string{"--agent", "qwen", "--settings", path, "--binary", "/opt/memrecall", "--dry-run"}, &out, &errOut, false); code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, errOut.String())
	}
	if b, _ := os.ReadFile(path); string(b) != `{"theme":"dark"}` {
		t.Fatalf("dry run wrote the file: %s", b)
	}
	if !strings.Contains(out.String(), `+             "command": "/opt/memrecall hook --agent qwen",`) {
		t.Fatalf("dry run does not show the change:\n%s", out.String())
	}
	for range 2 {
		if code := runInstall([]string{"--agent", "qwen", "--settings", path, "--binary", "/opt/memrecall"}, &out, &errOut, false); code != 0 {
			t.Fatalf("install: exit %d: %s", code, errOut.String())
		}
	}
	if !strings.Contains(out.String(), "Qwen Code's own recall is still on") {
		t.Errorf("install --agent qwen does not say that Qwen Code's own recall still delivers:\n%s", out.String())
	}
	b, _ := os.ReadFile(path)
	if n := strings.Count(string(b), "hook --agent qwen"); n != 5 || !strings.Contains(string(b), `"theme": "dark"`) {
		t.Fatalf("after two installs, %d entries:\n%s", n, b)
	}
	if bak, _ := os.ReadFile(path + ".memrecall-backup"); !strings.Contains(string(bak), "theme") {
		t.Fatalf("no backup: %q", bak)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after install, want 0600 kept", fi.Mode().Perm())
	}
	if code := runInstall([]string{"--agent", "qwen", "--settings", path, "--binary", "/opt/memrecall"}, &out, &errOut, true); code != 0 {
		t.Fatalf("uninstall: exit %d", code)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "memrecall") {
		t.Fatalf("uninstall left entries:\n%s", b)
	}
	// An unparsable file is refused and left alone.
	os.WriteFile(path, []byte(`{"theme": `), 0o600)
	errOut.Reset()
	if code := runInstall([]string{"--agent", "qwen", "--settings", path}, &out, &errOut, false); code != 1 || !strings.Contains(errOut.String(), "left unchanged") {
		t.Fatalf("unparsable: exit %d, %q", code, errOut.String())
	}
	if b, _ := os.ReadFile(path); string(b) != `{"theme": ` {
		t.Fatalf("unparsable file changed: %q", b)
	}
	// A file with comments is refused too, with the entries to add by hand.
	os.WriteFile(path, []byte("{\n  // mine\n  \"theme\": \"dark\"\n}\n"), 0o600)
	errOut.Reset()
	if code := runInstall([]string{"--agent", "qwen", "--settings", path, "--binary", "/opt/memrecall"}, &out, &errOut, false); code != 1 ||
		!strings.Contains(errOut.String(), "comments") || !strings.Contains(errOut.String(), `"command": "/opt/memrecall hook --agent qwen"`) {
		t.Fatalf("commented file: exit %d, %q; want 1, the reason and the snippet", code, errOut.String())
	}
}

func TestQwenOwnRecallOn(t *testing.T) {
	tests := map[string]bool{
		`{}`:            true,
		`{"memory":{}}`: true,
		`{"memory":{"enableManagedAutoMemory":true}}`:  true,
		`{"memory":{"enableManagedAutoMemory":false}}`: false,
		`{"memory":{"enableManagedAutoDream":false}}`:  true,
		`not json`: true,
	}
	for in, want := range tests {
		if got := qwenOwnRecallOn([]byte(in)); got != want {
			t.Errorf("qwenOwnRecallOn(%s) = %v, want %v", in, got, want)
		}
	}
}
