// Package scripttest runs the project's scenario scripts: text files of
// commands, each followed by the output it must print, in the
// cockroachdb/datadriven style. The fsm's and the engine's scripts share
// it, so both read and rewrite their files the same way.
//
// A script is a list of cases:
//
//	# comment
//	<command> key=value ...
//	<input lines, if the command takes any>
//	----
//	<expected output, up to the next blank line>
//
// The first line of a case that is neither blank nor a comment is its
// command; the lines after it, up to ----, are its input. Comments after
// the last case are kept when a script is rewritten.
package scripttest

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// Case is one command of a script, its input and its expected output.
type Case struct {
	Line     int      // 1-based line of the command
	Pre      []string // comments, the command and its input, verbatim
	Cmd      string
	Input    []string
	Expected []string
}

// Parse splits a script into cases. The lines after the last case (blank
// lines and comments) are returned in tail.
func Parse(text string) (cases []Case, tail []string, err error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	var c Case
	lineNo := 0
	for sc.Scan() {
		lineNo++
		l := sc.Text()
		if l != "----" {
			c.Pre = append(c.Pre, l)
			s := strings.TrimSpace(l)
			switch {
			case c.Cmd == "" && (s == "" || strings.HasPrefix(s, "#")):
			case c.Cmd == "":
				c.Cmd, c.Line = s, lineNo
			default:
				c.Input = append(c.Input, l)
			}
			continue
		}
		if c.Cmd == "" {
			return nil, nil, fmt.Errorf("line %d: ---- without a command", lineNo)
		}
		for sc.Scan() {
			lineNo++
			if sc.Text() == "" {
				break
			}
			c.Expected = append(c.Expected, sc.Text())
		}
		cases = append(cases, c)
		c = Case{}
	}
	if c.Cmd != "" {
		return nil, nil, fmt.Errorf("line %d: command %q without ----", c.Line, c.Cmd)
	}
	return cases, c.Pre, sc.Err()
}

// Run reads the script in file and runs its cases in order through run,
// which returns a case's output lines. Each output is compared with the
// script's; with rewrite, the file is written back with the outputs run
// produced instead, comments and inputs kept.
func Run(t testing.TB, file string, rewrite bool, run func(cmd string, input []string) ([]string, error)) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cases, tail, err := Parse(string(raw))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var out strings.Builder
	for i, c := range cases {
		got, err := run(c.Cmd, c.Input)
		if err != nil {
			t.Fatalf("%s:%d: %s: %v", file, c.Line, c.Cmd, err)
		}
		if rewrite {
			for _, l := range c.Pre {
				out.WriteString(l + "\n")
			}
			out.WriteString("----\n")
			for _, l := range got {
				out.WriteString(l + "\n")
			}
			if i < len(cases)-1 || len(tail) > 0 {
				out.WriteString("\n")
			}
			continue
		}
		if !slices.Equal(got, c.Expected) {
			t.Errorf("%s:%d: %s\ngot:\n%s\nwant:\n%s", file, c.Line, c.Cmd,
				strings.Join(got, "\n"), strings.Join(c.Expected, "\n"))
		}
	}
	if rewrite {
		for _, l := range tail {
			out.WriteString(l + "\n")
		}
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
