package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/memrecall/memrecall/memory"
)

// runScan lists what a memory tree holds: one line per document (scope,
// type, age, path, title), then the skip counts and the scan's work.
func runScan(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memrecall scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: memrecall scan [--project DIR] [--user DIR] [--agent NAME] [-v] [--json]

Lists what a memory tree holds, one line per topic document (scope, type,
age, path, title), then how many files were skipped and why, and the
scan's work; -v also names each skipped topic file and why. Without flags it reads the example tree shipped in the
repository (run it from the repository root). --json prints one JSON
object instead (schema memrecall.scan/v1, docs/cli-json.md).

flags:`)
		fs.PrintDefaults()
	}
	dirs := addDirFlags(fs)
	asJSON := fs.Bool("json", false, "print one JSON object (schema memrecall.scan/v1) instead of the table")
	verbose := fs.Bool("v", false, "name each skipped topic file and its reason (local output: paths are shown)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	roots, why, err := dirs.resolveRoots()
	if err != nil {
		fmt.Fprintf(stderr, "memrecall scan: %v\n", err)
		return 1
	}
	var opts []memory.Option
	if *verbose {
		opts = append(opts, memory.WithSkippedFiles())
	}
	res, err := memory.Scan(context.Background(), roots, opts...)
	if err != nil {
		fmt.Fprintf(stderr, "memrecall scan: %v\n", err)
		return 1
	}
	if *asJSON {
		if err := writeScanJSON(stdout, roots, why, res); err != nil {
			fmt.Fprintf(stderr, "memrecall scan: %v\n", err)
			return 1
		}
		return 0
	}
	printScan(stdout, roots, why, res, time.Now())
	if *verbose {
		printSkipped(stdout, res)
	}
	return 0
}

// printSkipped names the skipped topic files (scan -v): which file, in
// which scope, and the reason. Skips of roots, directories and links are
// only counted by the scan, and the line says how many there are.
func printSkipped(w io.Writer, res memory.Result) {
	if len(res.SkippedFiles) == 0 && res.Skipped.Total() == 0 {
		return
	}
	fmt.Fprintln(w)
	var rows [][]string
	for _, s := range res.SkippedFiles {
		rows = append(rows, []string{s.Scope.String(), s.Reason.String(), termSafe(s.RelPath)})
	}
	if len(rows) > 0 {
		writeTable(w, "", []string{"SKIPPED", "REASON", "PATH"}, rows)
	}
	if other := res.Skipped.Total() - len(res.SkippedFiles); other > 0 {
		fmt.Fprintf(w, "%s of roots, directories or links, counted only (see the counts above)\n", plural(other, "other skip"))
	}
}

// printScan renders a scan result, its columns aligned by display width
// (a CJK character takes two columns).
func printScan(w io.Writer, roots memory.Roots, why []string, res memory.Result, now time.Time) {
	fmt.Fprintf(w, "project: %s\nuser:    %s\n", orNone(roots.Project), orNone(roots.User))
	printWhy(w, why)
	fmt.Fprintln(w)
	var perScope [2]int
	var rows [][]string
	for _, d := range res.Docs {
		if int(d.Scope) < len(perScope) {
			perScope[d.Scope]++
		}
		rows = append(rows, []string{d.Scope.String(), d.Type.String(), age(now.Sub(d.Modified)), termSafe(d.RelPath), termSafe(d.Title)})
	}
	writeTable(w, "", []string{"SCOPE", "TYPE", "AGE", "PATH", "TITLE"}, rows)
	fmt.Fprintf(w, "\n%s (project %d, user %d); skipped %d: %s\n",
		plural(len(res.Docs), "document"), perScope[memory.ScopeProject], perScope[memory.ScopeUser],
		res.Skipped.Total(), res.Skipped)
	s := res.Stats
	fmt.Fprintf(w, "%s, %s, %d read, %d reused, %s, %s\n",
		plural(s.Dirs, "dir"), plural(s.Listed, "topic file"), s.Read, s.Reused, plural(s.Workers, "worker"), s.Duration.Round(10*time.Microsecond))
}

func orNone(dir string) string {
	if dir == "" {
		return "(none)"
	}
	return dir
}

// age renders a duration coarsely, as a person reads a file's age:
// "3 min", "2 h", "5 d" (a bare "5m" reads as months to some).
func age(d time.Duration) string {
	switch {
	case d < 0:
		return "future"
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d/time.Hour))
	}
	return fmt.Sprintf("%d d", int(d/(24*time.Hour)))
}

// plural writes a count with its noun, singular for one: "1 document",
// "3 documents".
func plural(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, pluralWord(n, noun))
}

// pluralWord is noun, made plural unless n is one ("match" → "matches").
func pluralWord(n int, noun string) string {
	switch {
	case n == 1:
		return noun
	case strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "s"):
		return noun + "es"
	}
	return noun + "s"
}
