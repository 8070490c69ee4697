package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memrecall/memrecall/fsm"
)

func TestRunGraph(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		stdout   string
		inStderr string
	}{
		{args: nil, code: 0, stdout: fsm.DOT()},
		{args: []string{"--format", "dot"}, code: 0, stdout: fsm.DOT()},
		{args: []string{"-format=mermaid"}, code: 0, stdout: fsm.Mermaid()},
		{args: []string{"--format", "svg"}, code: 2, inStderr: `unknown format "svg"`},
		{args: []string{"extra"}, code: 2, inStderr: `unexpected argument "extra"`},
		{args: []string{"--nope"}, code: 2, inStderr: "flag provided but not defined"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := runGraph(tc.args, &stdout, &stderr)
		if code != tc.code {
			t.Errorf("graph %q: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr.String())
		}
		if stdout.String() != tc.stdout {
			t.Errorf("graph %q: stdout differs from the fsm export:\n%s", tc.args, stdout.String())
		}
		if !strings.Contains(stderr.String(), tc.inStderr) {
			t.Errorf("graph %q: stderr %q lacks %q", tc.args, stderr.String(), tc.inStderr)
		}
	}
}
