package recall

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/telemetry"
)

// fixture is a real memory tree in a temporary directory: six documents
// that match "deploy" only in their titles (equal scores, so the ranking is
// by modification time: deploy-1 newest) and two that match nothing.
type fixture struct {
	project, user string
}

var fixtureNow = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

func newFixture(t testing.TB) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{project: filepath.Join(root, "project"), user: filepath.Join(root, "user")}
	for i := 1; i <= 5; i++ {
		f.write(t, memory.ScopeProject, fmt.Sprintf("deploy-%d.md", i), "project",
			fmt.Sprintf("Deploy note %d", i), "steps for the release", "Body of note.", i)
	}
	f.write(t, memory.ScopeUser, "deploy-6.md", "user", "Deploy habits", "how I like releases", "Tabs.", 6)
	f.write(t, memory.ScopeProject, "grafana.md", "reference", "Grafana dashboards", "where the graphs are", "See the wiki.", 7)
	f.write(t, memory.ScopeUser, "tabs.md", "user", "Indentation", "tabs, not spaces", "Always tabs.", 8)
	return f
}

// write creates one topic file, age days older than fixtureNow.
func (f *fixture) write(t testing.TB, s memory.Scope, rel, typ, name, desc, body string, age int) {
	t.Helper()
	root := f.project
	if s == memory.ScopeUser {
		root = f.user
	}
	path := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf("---\ntype: %s\nname: %s\ndescription: %s\n---\n%s\n", typ, name, desc, body)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	mod := fixtureNow.Add(-time.Duration(age) * 24 * time.Hour)
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// id returns the document ID of "deploy-N" or another file by name.
func (f *fixture) id(name string) memory.ID {
	if name == "deploy-6" || name == "tabs" {
		return memory.ID(filepath.Join(f.user, name+".md"))
	}
	return memory.ID(filepath.Join(f.project, name+".md"))
}

// key returns the manifest key of a fixture document.
func (f *fixture) key(name string) string {
	if name == "deploy-6" || name == "tabs" {
		return "user/" + name + ".md"
	}
	return "project/" + name + ".md"
}

// engine builds an engine on the fixture with sel and a recorder.
func (f *fixture) engine(sel model.Selector, faults fault) (*Engine, *telemetry.Recorder) {
	rec := &telemetry.Recorder{}
	e := newEngine(Options{
		ProjectDir: f.project, UserDir: f.user, Selector: sel, Sink: rec,
		Clock: func() time.Time { return fixtureNow },
	}, faults, warmUpRelease)
	return e, rec
}

// answer is a scripted selector that answers with fixture documents after
// delay.
func (f *fixture) answer(delay time.Duration, names ...string) model.Selector {
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = f.key(n)
	}
	return model.Delayed{Inner: model.Scripted{Answer: keys}, Delay: delay}
}

// deliveries returns the recorded delivery events as readable strings.
func deliveries(rec *telemetry.Recorder) []string {
	var out []string
	for _, d := range rec.Deliveries() {
		d.Latency = 0
		out = append(out, d.String())
	}
	return out
}
