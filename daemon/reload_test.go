package daemon

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/memory"
)

// TestConfigReloadedWhenChanged: the daemon reads its config file again
// when the file changes, with no restart. A new roots override applies to
// the sessions that start after it; a key in a file others can read is
// still refused (the daemon answers nothing and status says so), and a
// chmod 600 makes it answer again.
func TestConfigReloadedWhenChanged(t *testing.T) {
	treeA := copyTree(t) // the example memory: deploy-checklist.md
	treeB := t.TempDir()
	note := "---\ntype: project\nname: Staging database\ndescription: where the staging database lives\n---\nThe staging database is pg-staging-7.\n"
	if err := os.WriteFile(filepath.Join(treeB, "staging-db.md"), []byte(note), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.json")
	write := func(project string, key string, mode os.FileMode) {
		t.Helper()
		c := Config{Roots: map[string]RootsConfig{"claude": {Project: project}}}
		c.Selector.APIKey = key
		b, _ := json.Marshal(c)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	write(treeA, "", 0o600)
	cfg, err := LoadConfig(path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(Options{Dir: runtimeDir(t), Config: cfg, ConfigPath: path, Getenv: func(string) string { return "" }})
	defer s.shutdownSessions()
	ask := func(session, text string) string {
		return contextOf(t, s.Handle(event("claude", session, "UserPromptSubmit", prompt(text))).Output)
	}
	steps := []struct {
		name    string
		change  func()
		session string
		prompt  string
		want    string // a substring of the context, "" for nothing
		cfgErr  bool
	}{
		{"the config at start", nil, "s1", "deploy checklist for billing-api", "deploy-checklist.md", false},
		{"roots changed: a new session reads the new root", func() { write(treeB, "", 0o600) }, "s2", "staging database", "staging-db.md", false},
		{"a key in a group-readable file is refused", func() { write(treeB, "sk-test", 0o640) }, "s3", "staging database", "", true},
		{"chmod 600 makes it usable again", func() { os.Chmod(path, 0o600) }, "s4", "staging database", "staging-db.md", false},
		{"file removed: the defaults, no roots override", func() { os.Remove(path) }, "s5", "staging database", "", false},
	}
	for _, st := range steps {
		if st.change != nil {
			st.change()
		}
		got := ask(st.session, st.prompt)
		if st.want == "" && got != "" || st.want != "" && !strings.Contains(got, st.want) {
			t.Errorf("%s: context %q, want %q", st.name, got, st.want)
		}
		if ce := s.Status().ConfigError; ce != st.cfgErr {
			t.Errorf("%s: status config error %v, want %v", st.name, ce, st.cfgErr)
		}
	}
}

// TestConfigSameSizeEditInOneTick: an edit that keeps the file's size and
// lands in the same modification-time tick as the version last loaded
// (here: the time is set back to the old one) is still seen, because a
// stamp within the racy window of its load is not trusted (the catalog's
// rule, memory.RacyWindow). Each version names a different root of the
// same length.
func TestConfigSameSizeEditInOneTick(t *testing.T) {
	base := t.TempDir()
	treeA, treeB := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, d := range []struct{ dir, name, db string }{{treeA, "db-a.md", "pg-alpha"}, {treeB, "db-b.md", "pg-bravo"}} {
		note := "---\ntype: project\nname: Staging database\ndescription: where the staging database lives\n---\nThe staging database is " + d.db + ".\n"
		if err := os.MkdirAll(d.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.dir, d.name), []byte(note), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "config.json")
	write := func(project string) []byte {
		t.Helper()
		b, _ := json.Marshal(Config{Roots: map[string]RootsConfig{"claude": {Project: project}}})
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return b
	}
	a := write(treeA)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// The daemon's clock stands at the file's modification time, so the
	// first load is within the racy window whatever the machine's load.
	s := newServer(Options{Dir: runtimeDir(t), ConfigPath: path, Getenv: func(string) string { return "" },
		Now: func() time.Time { return fi.ModTime() }})
	defer s.shutdownSessions()
	ask := func(session string) string {
		return contextOf(t, s.Handle(event("claude", session, "UserPromptSubmit", prompt("staging database"))).Output)
	}
	if got := ask("s1"); !strings.Contains(got, "db-a.md") {
		t.Fatalf("first config: context %q, want db-a.md", got)
	}
	if b := write(treeB); len(b) != len(a) {
		t.Fatalf("the two configs differ in size (%d, %d): the test needs a same-size edit", len(a), len(b))
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := ask("s2"); !strings.Contains(got, "db-b.md") {
		t.Errorf("same-size edit in the same tick: context %q, want db-b.md (the edit was missed)", got)
	}
}

// TestConfigStampRacy: the racy rule on fixed times, so it holds whatever
// the machine's load: a stamp younger than
// memory.RacyWindow is not kept, one at least that old is.
func TestConfigStampRacy(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		st   configStamp
		want bool
	}{
		{"modified now", configStamp{exists: true, mod: now}, true},
		{"just inside the window", configStamp{exists: true, mod: now.Add(-memory.RacyWindow + time.Nanosecond)}, true},
		{"as old as the window", configStamp{exists: true, mod: now.Add(-memory.RacyWindow)}, false},
		{"an hour old", configStamp{exists: true, mod: now.Add(-time.Hour)}, false},
	} {
		if got := tc.st.racy(now); got != tc.want {
			t.Errorf("%s: racy = %v, want %v", tc.name, got, tc.want)
		}
	}
}
