package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestScanCommandDefaultsToExamples(t *testing.T) {
	t.Chdir("../..") // the repository root, as for `go run ./cmd/memrecall scan`
	var out, errb bytes.Buffer
	if code := run([]string{"scan"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	for _, want := range []string{
		"16 documents (project 9, user 7); skipped 0: none",
		"payment-callback-retry.md", "支付回调重试", "커밋 메시지 규칙", "ทีมที่กรุงเทพ",
		"SCOPE", "reference", "feedback",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "MEMORY.md") {
		t.Error("the index file is listed as a topic")
	}
}

func TestScanCommandFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runScan([]string{"extra"}, &out, &errb); code != 2 {
		t.Errorf("unexpected argument: exit %d, want 2", code)
	}
	if code := runScan([]string{"--nope"}, &out, &errb); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
}

func TestAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "future", 10 * time.Second: "now", 5 * time.Minute: "5 min",
		3 * time.Hour: "3 h", 72 * time.Hour: "3 d",
	} {
		if got := age(d); got != want {
			t.Errorf("age(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestScanVerboseNamesSkippedFiles: scan -v names each skipped topic file
// with its scope and reason; without -v no skipped path is printed.
func TestScanVerboseNamesSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good.md", "---\ntype: user\nname: Good\n---\nbody\n")
	write("notes/plain.md", "no frontmatter\n")
	write("odd.md", "---\ntype: diary\n---\nbody\n")
	var out, errb bytes.Buffer
	if code := run([]string{"scan", "-v", "--project", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	_, listing, ok := strings.Cut(out.String(), "SKIPPED")
	if !ok {
		t.Fatalf("no skipped-file table:\n%s", out.String())
	}
	want := "  REASON          PATH\n" +
		"project  no_frontmatter  notes/plain.md\n" +
		"project  unknown_type    odd.md\n"
	if listing != want {
		t.Errorf("skipped files (-want +got):\n%s", cmp.Diff(want, listing))
	}
	out.Reset()
	if code := run([]string{"scan", "--project", dir}, &out, &errb); code != 0 || strings.Contains(out.String(), "plain.md") {
		t.Errorf("without -v: exit %d, output names a skipped file:\n%s", code, out.String())
	}
}
