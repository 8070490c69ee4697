package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOutputEscapesControlCharacters: a memory file can put terminal
// control sequences in its name, its description, its body or its file
// name. scan and query must print them escaped, as they already print the
// query text, so a memory file cannot drive the user's terminal.
func TestOutputEscapesControlCharacters(t *testing.T) {
	t.Setenv(envBaseURL, "")
	t.Setenv(envModel, "")
	dir := t.TempDir()
	const evil = "\x1b]0;owned\x07\x1b[2J\u009b31m\u202e"
	text := "---\ntype: project\nname: deploy " + evil + " title\ndescription: deploy " + evil + " desc\n---\ndeploy body " + evil + "\n"
	for _, name := range []string{"deploy.md", "deploy\x1b[31m.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"scan", "--project", dir},
		{"query", "deploy", "--project", dir},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		for _, stream := range []struct {
			name string
			b    []byte
		}{{"stdout", out.Bytes()}, {"stderr", errb.Bytes()}} {
			if bad := rawControls(stream.b); bad != "" {
				t.Errorf("%v: %s carries raw control characters %q:\n%s", args, stream.name, bad, stream.b)
			}
		}
		if !strings.Contains(out.String(), `\x1b`) {
			t.Errorf("%v: the escape is not shown escaped:\n%s", args, out.String())
		}
	}
}

// rawControls returns the control characters in b other than newline and
// tab (C0, DEL, C1, bidi overrides and isolates).
func rawControls(b []byte) string {
	var bad []rune
	for s := string(b); s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			bad = append(bad, r)
		}
	}
	return string(bad)
}

func TestTermSafe(t *testing.T) {
	tests := []struct{ in, line, block string }{
		{"plain title", "plain title", "plain title"},
		{"支付回调重试", "支付回调重试", "支付回调重试"},
		{"a\x1b[2Jb", `a\x1b[2Jb`, `a\x1b[2Jb`},
		{"bell\a", `bell\a`, `bell\a`},
		{"two\nlines\tx", `two\nlines\tx`, "two\nlines\tx"},
		{"c1 \u009b", `c1 \u009b`, `c1 \u009b`},
		{"bidi \u202eevil", `bidi \u202eevil`, `bidi \u202eevil`},
		{"bad \xff utf8", `bad \xff utf8`, `bad \xff utf8`},
		{"real \uFFFD kept", "real \uFFFD kept", "real \uFFFD kept"},
	}
	for _, tt := range tests {
		if got := termSafe(tt.in); got != tt.line {
			t.Errorf("termSafe(%q) = %q, want %q", tt.in, got, tt.line)
		}
		if got := termSafeBlock(tt.in); got != tt.block {
			t.Errorf("termSafeBlock(%q) = %q, want %q", tt.in, got, tt.block)
		}
	}
}
