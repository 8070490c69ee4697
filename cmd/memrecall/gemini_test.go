package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// geminiHome builds a throw-away home in Gemini CLI 0.61's layout for a
// fresh working directory: ~/.gemini/projects.json maps it to a slug, the
// slug's .project_root names it, and ~/.gemini/tmp/<slug>/memory holds a
// MEMORY.md index and notes as Gemini writes them (no frontmatter). The
// working directory becomes the current one; nothing touches the real home.
func geminiHome(t *testing.T) (memDir string) {
	t.Helper()
	home := t.TempDir()
	cwd, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"GEMINI_CLI_HOME", "SANDBOX"} {
		t.Setenv(k, "")
	}
	t.Setenv("HOME", home)
	t.Setenv(envCacheDir, t.TempDir())
	t.Setenv(envBaseURL, "")
	t.Setenv(envModel, "")
	runtime := filepath.Join(home, ".gemini")
	slugDir := filepath.Join(runtime, "tmp", "billing-api")
	memDir = filepath.Join(slugDir, "memory")
	files := map[string]string{
		filepath.Join(runtime, "projects.json"):        `{"projects": {"` + cwd + `": "billing-api"}}`,
		filepath.Join(slugDir, ".project_root"):        cwd,
		filepath.Join(memDir, "MEMORY.md"):             "- See " + filepath.Join(memDir, "release-freeze.md") + " for the release freeze\n",
		filepath.Join(memDir, "release-freeze.md"):     "# Release freeze\n\nNo deploys from Thursday noon until the mobile cut ships.\n",
		filepath.Join(memDir, "grafana-dashboards.md"): "Dashboards for the payment service live in ops/grafana.\n",
	}
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(cwd)
	return memDir
}

// Gemini's own notes, which carry no frontmatter, are documents when read
// as Gemini's memory; the same files given as a plain --project stay
// skipped, as for any other tree.
func TestScanAgentGeminiPlainNotes(t *testing.T) {
	memDir := geminiHome(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"scan", "--agent", "gemini"}, &out, &errOut); code != 0 {
		t.Fatalf("scan --agent gemini: exit %d, stderr %s", code, errOut.String())
	}
	for _, want := range []string{"2 documents", "skipped 0", "Release freeze", "grafana-dashboards", "release-freeze.md"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("scan --agent gemini lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "MEMORY.md") {
		t.Errorf("the index is listed:\n%s", out.String())
	}

	out.Reset()
	if code := run([]string{"scan", "--project", memDir}, &out, &errOut); code != 0 {
		t.Fatalf("scan --project: exit %d, stderr %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "no_frontmatter=2") {
		t.Errorf("scan --project should skip the plain notes:\n%s", out.String())
	}

	out.Reset()
	if code := run([]string{"query", "--agent", "gemini", "can we deploy during the release freeze?"}, &out, &errOut); code != 0 {
		t.Fatalf("query --agent gemini: exit %d, stderr %s", code, errOut.String())
	}
	for _, want := range []string{"# Saved memories", "Release freeze", "No deploys from Thursday noon"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("query --agent gemini lacks %q:\n%s", want, out.String())
		}
	}
}
