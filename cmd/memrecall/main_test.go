package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSubcommandFlags: every subcommand without positional arguments
// answers -h with 0, and a bad flag or a stray argument with 2 and a line
// naming the command.
func TestSubcommandFlags(t *testing.T) {
	for _, cmd := range []string{"scan", "eval", "graph"} {
		for _, tc := range []struct {
			args     []string
			code     int
			inStderr string
		}{
			{args: []string{"-h"}, code: 0},
			{args: []string{"--no-such-flag"}, code: 2, inStderr: "flag provided but not defined"},
			{args: []string{"stray"}, code: 2, inStderr: "memrecall " + cmd + `: unexpected argument "stray"`},
		} {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{cmd}, tc.args...), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("%s %v: exit %d, want %d (stderr %q)", cmd, tc.args, code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.inStderr) {
				t.Errorf("%s %v: stderr %q lacks %q", cmd, tc.args, stderr.String(), tc.inStderr)
			}
		}
	}
}

// TestEverySubcommandHasHelp: -h of every command the usage lists prints a
// synopsis naming the command and a description before the flags, and
// exits 0.
func TestEverySubcommandHasHelp(t *testing.T) {
	var cmds []string
	for _, l := range strings.Split(usage, "\n") {
		if f := strings.Fields(l); len(l) > 2 && l[:2] == "  " && len(f) > 1 {
			cmds = append(cmds, f[0])
		}
	}
	cmds = append(cmds, "uninstall")
	if len(cmds) < 8 {
		t.Fatalf("read %d commands from the usage text: %v", len(cmds), cmds)
	}
	for _, cmd := range cmds {
		var stdout, stderr bytes.Buffer
		if code := run([]string{cmd, "-h"}, &stdout, &stderr); code != 0 {
			t.Errorf("%s -h: exit %d", cmd, code)
		}
		text := stderr.String()
		synopsis, rest, _ := strings.Cut(text, "\n")
		if !strings.HasPrefix(synopsis, "usage: memrecall "+cmd) {
			t.Errorf("%s -h: first line %q is not a synopsis", cmd, synopsis)
		}
		desc, _, _ := strings.Cut(strings.TrimLeft(rest, " \n"), "\n\n")
		if strings.TrimSpace(desc) == "" || strings.HasPrefix(strings.TrimSpace(desc), "-") {
			t.Errorf("%s -h: no description before the flags:\n%s", cmd, text)
		}
	}
}
