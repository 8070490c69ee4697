package daemon

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/testenv"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
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
	s := newServer(Options{Dir: testenv.ShortDir(t), Config: cfg, ConfigPath: path, Getenv: func(string) string { return "" }})
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
	treeA, treeB, path, write := twoTreeConfig(t)
	a := write(treeA)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// The daemon's clock stands at the file's modification time, so the
	// first load is within the racy window whatever the machine's load.
	s := newServer(Options{Dir: testenv.ShortDir(t), ConfigPath: path, Getenv: func(string) string { return "" },
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
// the machine's load: a stamp that changed less than memory.RacyWindow ago
// is not kept, one at least that old is; the later of the modification
// and change times counts; a stamp dated ahead of the clock is distrusted
// only until it has been seen for memory.RacyWindow.
func TestConfigStampRacy(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	w := memory.RacyWindow
	for _, tc := range []struct {
		name string
		st   configStamp
		seen time.Time
		want bool
	}{
		{"modified now", configStamp{exists: true, mod: now}, now, true},
		{"just inside the window", configStamp{exists: true, mod: now.Add(-w + time.Nanosecond)}, now, true},
		{"as old as the window", configStamp{exists: true, mod: now.Add(-w)}, now, false},
		{"an hour old", configStamp{exists: true, mod: now.Add(-time.Hour)}, now, false},
		{"old mtime, changed now (touch -r)", configStamp{exists: true, mod: now.Add(-time.Hour), ctime: now}, now, true},
		{"old mtime, changed a window ago", configStamp{exists: true, mod: now.Add(-time.Hour), ctime: now.Add(-w)}, now, false},
		{"dated an hour ahead, first seen now", configStamp{exists: true, mod: now.Add(time.Hour)}, now, true},
		{"dated an hour ahead, seen just inside the window", configStamp{exists: true, mod: now.Add(time.Hour)}, now.Add(-w + time.Nanosecond), true},
		{"dated an hour ahead, seen a window ago", configStamp{exists: true, mod: now.Add(time.Hour)}, now.Add(-w), false},
		{"missing file", configStamp{}, now, false},
	} {
		if got := tc.st.racy(now, tc.seen); got != tc.want {
			t.Errorf("%s: racy = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestConfigEditKeepingMtime: an edit that keeps the file's size and sets
// its modification time back to the loaded version's (touch -r), long
// after the racy window, is still seen: the stamp holds the change time,
// which the edit cannot set back. Without it the stamp is unchanged and
// trusted, and the edit is missed.
func TestConfigEditKeepingMtime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the stamp holds the change time on Linux only")
	}
	treeA, treeB, path, write := twoTreeConfig(t)
	a := write(treeA)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// The daemon's clock stands an hour after the file's times: no stamp
	// is racy, so only the stamp itself can tell the edit.
	later := fi.ModTime().Add(time.Hour)
	s := newServer(Options{Dir: testenv.ShortDir(t), ConfigPath: path, Getenv: func(string) string { return "" },
		Now: func() time.Time { return later }})
	defer s.shutdownSessions()
	ask := func(session string) string {
		return contextOf(t, s.Handle(event("claude", session, "UserPromptSubmit", prompt("staging database"))).Output)
	}
	if got := ask("s1"); !strings.Contains(got, "db-a.md") {
		t.Fatalf("first config: context %q, want db-a.md", got)
	}
	changeTime := func() time.Time {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		_, _, ctime := statIDs(fi)
		return ctime
	}
	loaded, loadedCtime := stampOf(path), changeTime()
	if b := write(treeB); len(b) != len(a) {
		t.Fatalf("the two configs differ in size (%d, %d): the test needs a same-size edit", len(a), len(b))
	}
	// touch -r: the old times back. The change time moves with each call;
	// a coarse clock may need a few ticks to move it past the loaded one.
	for i := 0; ; i++ {
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if !changeTime().Equal(loadedCtime) {
			break
		}
		if i == 200 {
			t.Fatal("the file's change time did not move in 200 ticks")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := stampOf(path); st.mod != loaded.mod || st.size != loaded.size {
		t.Fatalf("the edit changed the modification time or size: %+v, loaded %+v", st, loaded)
	}
	if got := ask("s2"); !strings.Contains(got, "db-b.md") {
		t.Errorf("same-size edit with its old mtime back: context %q, want db-b.md (the edit was missed)", got)
	}
}

// TestConfigSameBytesNotReloaded: a read of the config that finds the
// bytes and mode in force (the racy window re-reads it on every event for
// 2 s after an edit; a touch changes only its times) neither rebuilds the
// selector nor logs "config reloaded"; a real edit does both, once.
func TestConfigSameBytesNotReloaded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	write := func(model string) {
		t.Helper()
		var c Config
		c.Selector.BaseURL, c.Selector.Model = "http://127.0.0.1:9/v1", model
		b, _ := json.Marshal(c)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("m1")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	// The clock stands at the file's time: every stamp stays racy, so
	// every call below reads the file.
	s := newServer(Options{Dir: testenv.ShortDir(t), ConfigPath: path, Getenv: func(string) string { return "" },
		Logger: slog.New(slog.NewTextHandler(&log, nil)),
		Now:    func() time.Time { return fi.ModTime() }})
	defer s.shutdownSessions()
	reloads := func() int { return strings.Count(log.String(), "config reloaded") }
	selector := func() model.Selector {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.selector
	}
	steps := []struct {
		name    string
		change  func()
		reloads int  // log lines so far
		same    bool // the selector is the previous step's
	}{
		{"first event: the file is read and applied", nil, 1, false},
		{"no change, racy stamp: read again, nothing applied", nil, 1, true},
		{"touched: read again, nothing applied", func() {
			now := time.Now()
			if err := os.Chtimes(path, now, now); err != nil {
				t.Fatal(err)
			}
		}, 1, true},
		{"rewritten with the same bytes", func() { write("m1") }, 1, true},
		{"a real edit is applied and logged", func() { write("m2") }, 2, false},
		{"and then not again", nil, 2, true},
	}
	var prev model.Selector
	for i, st := range steps {
		if st.change != nil {
			st.change()
		}
		if _, err := s.reloadConfig(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := reloads(); got != st.reloads {
			t.Errorf("%s: %d \"config reloaded\" lines, want %d", st.name, got, st.reloads)
		}
		sel := selector()
		if sel == nil {
			t.Fatalf("%s: no selector", st.name)
		}
		if i > 0 && (sel == prev) != st.same {
			t.Errorf("%s: selector kept = %v, want %v", st.name, sel == prev, st.same)
		}
		prev = sel
	}
}

// TestConfigFutureDateBounded: a config dated an hour ahead of the clock
// is re-read only until its stamp has been seen for memory.RacyWindow,
// not until the clock catches up with it.
func TestConfigFutureDateBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := os.Chtimes(path, now.Add(time.Hour), now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	clock := now
	s := newServer(Options{Dir: testenv.ShortDir(t), ConfigPath: path, Getenv: func(string) string { return "" },
		Now: func() time.Time { return clock }})
	defer s.shutdownSessions()
	trusted := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.cfgTrusted
	}
	for _, st := range []struct {
		after   time.Duration // since the first event
		trusted bool
	}{
		{0, false},
		{time.Second, false},
		{memory.RacyWindow, true},
	} {
		clock = now.Add(st.after)
		if _, err := s.reloadConfig(); err != nil {
			t.Fatal(err)
		}
		if got := trusted(); got != st.trusted {
			t.Errorf("%v after the first event: stamp trusted = %v, want %v", st.after, got, st.trusted)
		}
	}
}

// twoTreeConfig makes two memory trees whose notes differ only in the
// database they name (pg-alpha, pg-bravo: the same length), and a config
// path; write points the config's claude project root at a tree and
// returns the bytes it wrote.
func twoTreeConfig(t *testing.T) (treeA, treeB, path string, write func(project string) []byte) {
	t.Helper()
	base := t.TempDir()
	treeA, treeB = filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, d := range []struct{ dir, name, db string }{{treeA, "db-a.md", "pg-alpha"}, {treeB, "db-b.md", "pg-bravo"}} {
		note := "---\ntype: project\nname: Staging database\ndescription: where the staging database lives\n---\nThe staging database is " + d.db + ".\n"
		if err := os.MkdirAll(d.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.dir, d.name), []byte(note), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path = filepath.Join(t.TempDir(), "config.json")
	write = func(project string) []byte {
		t.Helper()
		b, _ := json.Marshal(Config{Roots: map[string]RootsConfig{"claude": {Project: project}}})
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return b
	}
	return treeA, treeB, path, write
}
