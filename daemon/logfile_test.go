package daemon

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/internal/testenv"
)

// TestLogFileBoundedAndPrivate: the log rotates before it passes its
// limit, keeps one older file, and both are 0600.
func TestLogFileBoundedAndPrivate(t *testing.T) {
	dir := testenv.ShortDir(t)
	const limit = 1000
	l, err := OpenLog(dir, limit)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("x", 99) + "\n")
	for range 95 {
		if _, err := l.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, name := range []string{LogName, LogName + ".1"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > limit || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %d bytes, mode %v; want at most %d and 0600", name, fi.Size(), fi.Mode().Perm(), limit)
		}
		total += fi.Size()
	}
	// 95 records of 100 bytes, 10 per file: the older file holds records
	// 81-90, the current one 91-95; none is cut.
	if total != 15*int64(len(line)) {
		t.Errorf("the two files hold %d bytes, want %d", total, 15*len(line))
	}
	// Reopening appends to what is there, and a file made readable by
	// others is made private again.
	os.Chmod(filepath.Join(dir, LogName), 0o644)
	l, err = OpenLog(dir, limit)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if fi, _ := os.Stat(filepath.Join(dir, LogName)); fi.Mode().Perm() != 0o600 || fi.Size() == 0 {
		t.Errorf("reopened log: mode %v, %d bytes; want 0600 and the old records", fi.Mode().Perm(), fi.Size())
	}
}

// TestLogHoldsNoSecrets runs a daemon that logs to its file through a
// whole turn whose prompt, memory (file name, title, description, body),
// session id, working directory, roots and API key all carry marker
// strings, then greps the log: it holds one line per event, and none of
// the markers.
func TestLogHoldsNoSecrets(t *testing.T) {
	tree := t.TempDir()
	project := filepath.Join(tree, "proj-PATHSECRET")
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	note := "---\ntype: project\nname: TITLESECRET deploy checklist\ndescription: DESCSECRET how we deploy\n---\nBODYSECRET run the deploy checklist before a release.\n"
	if err := os.WriteFile(filepath.Join(project, "file-NAMESECRET.md"), []byte(note), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := testenv.ShortDir(t)
	lf, err := OpenLog(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := RootsConfig{Project: project}
	s, _ := serve(t, Options{
		Dir: dir, Logger: slog.New(slog.NewTextHandler(lf, nil)),
		Config: Config{
			Roots: map[string]RootsConfig{"claude": r},
			// Unreachable: the selector call fails at once, and its error
			// must not be logged with the key either.
			Selector: SelectorConfig{BaseURL: "http://127.0.0.1:9/v1", Model: "m", APIKey: "sk-KEYSECRET0123456789"},
		},
	})
	sid := "sess-IDSECRET"
	cwd := `,"cwd":"/home/u/CWDSECRET"`
	events := []wire.Request{
		event("claude", sid, "SessionStart", `,"source":"startup"`+cwd),
		event("claude", sid, "UserPromptSubmit", prompt("PROMPTSECRET deploy checklist")+cwd),
		event("claude", sid, "PostToolUse", `,"tool_name":"Bash","tool_response":{"stdout":"TOOLSECRET"}`+cwd),
		event("claude", sid, "Stop", cwd),
		event("claude", sid, "SessionEnd", `,"reason":"other"`+cwd),
		event("claude", "s2", "UserPromptSubmit", `,"prompt":`), // malformed
	}
	delivered := false
	for _, req := range events {
		resp := s.Handle(req)
		if strings.Contains(resp.Output, "BODYSECRET") {
			delivered = true
		}
	}
	if !delivered {
		t.Fatal("the memory was never delivered: the test would check a log of nothing")
	}
	s.Close()
	var log bytes.Buffer
	for _, name := range []string{LogName, LogName + ".1"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		log.Write(b)
	}
	if got := strings.Count(log.String(), "msg=event "); got != len(events) {
		t.Errorf("log has %d event lines, want %d:\n%s", got, len(events), log.String())
	}
	for _, secret := range []string{"SECRET", project, tree, "deploy", "checklist", "Bash", "/home/u"} {
		if strings.Contains(log.String(), secret) {
			t.Errorf("log contains %q:\n%s", secret, log.String())
		}
	}
	for _, want := range []string{"op=query", "outcome=ok", "docs=", "outcome=bad_event", fmt.Sprintf("session=%s", hash("claude", sid))} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}
