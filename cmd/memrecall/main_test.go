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
