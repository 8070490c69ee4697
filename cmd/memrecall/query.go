package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/memrecall/memrecall/internal/gcpolicy"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
	"github.com/memrecall/memrecall/telemetry"
)

// The environment variables that configure the model selector. Without
// MEMRECALL_BASE_URL and MEMRECALL_MODEL the query runs deterministic only.
const (
	envBaseURL = "MEMRECALL_BASE_URL"
	envModel   = "MEMRECALL_MODEL"
	envAPIKey  = "MEMRECALL_API_KEY"
)

// shownRanked bounds the ranked list printed; the count says how many more.
const shownRanked = 20

// runQuery runs one query through the whole recall lifecycle on a real
// tree and prints what a host would see: the ranked candidates with their
// scores, the initial (fast or refined) delivery, the manifest, the
// selector's choice, the tool-result delivery, the injected texts, the
// telemetry and the timings. The turn it simulates sends its first model
// request after the initial wait and gets one tool result back once the
// selector has answered.
func runQuery(args []string, stdout, stderr io.Writer) int {
	// One query, then exit: the one-shot collector setting, shared with
	// the benchmark child that stands for this process (package
	// gcpolicy; decisions 0801 and 0834). Restored on return, for tests
	// that run the command in process.
	defer gcpolicy.OneShot()()
	return runQueryFrom(args, os.Stdin, stdout, stderr)
}

// maxStdinQuery bounds a query read from standard input.
const maxStdinQuery = 1 << 20

// runQueryFrom is runQuery with its standard input given, for "query -".
func runQueryFrom(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memrecall query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: memrecall query "TEXT" [--project DIR] [--user DIR] [--agent NAME] [--tools a,b] [--json]
       memrecall query - [flags] < query.txt

Runs TEXT (or, for "-", the whole of standard input) through the recall
lifecycle on a memory tree and shows what a host would see: the ranking
with scores, the initial and tool-result deliveries, the manifest, the
injected text, the telemetry and the timings. The model selector is used
when MEMRECALL_BASE_URL and MEMRECALL_MODEL (and MEMRECALL_API_KEY if
needed) name an OpenAI-compatible endpoint; otherwise recall is
deterministic only. --json prints one JSON object instead (schema
memrecall.query/v1, docs/cli-json.md).

flags:`)
		fs.PrintDefaults()
	}
	dirs := addDirFlags(fs)
	asJSON := fs.Bool("json", false, "print one JSON object (schema memrecall.query/v1) instead of the report")
	tools := fs.String("tools", "", "comma-separated `names` of tools the agent used recently (noise filter)")
	noSnap := fs.Bool("no-snapshot", false, "neither read nor write the persistent snapshot (also "+envSnapshot+"=off)")
	text, err := parseInterleaved(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		fmt.Fprintf(stderr, "memrecall query: %v\n", err)
		return 2
	}
	if text == "-" {
		raw, err := io.ReadAll(io.LimitReader(stdin, maxStdinQuery+1))
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "memrecall query: reading the query from standard input: %v\n", err)
			return 1
		case len(raw) > maxStdinQuery:
			fmt.Fprintf(stderr, "memrecall query: the query on standard input is longer than %d bytes\n", maxStdinQuery)
			return 2
		}
		if text = strings.TrimSpace(string(raw)); text == "" {
			fmt.Fprintln(stderr, "memrecall query: empty query text on standard input")
			return 2
		}
	}
	roots, why, err := dirs.resolveRoots()
	if err != nil {
		fmt.Fprintf(stderr, "memrecall query: %v\n", err)
		return 1
	}
	sel, selName, err := selectorFromEnv()
	if err != nil {
		fmt.Fprintf(stderr, "memrecall query: %s: %v\n", envBaseURL, err)
		return 1
	}
	q := recall.Query{Text: text, RecentTools: splitTools(*tools)}
	r, shutdown := runTurn(roots, sel, q, snapshotDir(*noSnap))
	// The engine shuts down once the output is written: Shutdown waits for
	// a snapshot write under way, which must reach the disk before the
	// process exits but need not hold the answer back
	// (docs/decisions/0800-one-shot-process.md).
	defer shutdown()
	if *asJSON {
		if err := writeQueryJSON(stdout, roots, why, q, selName, r); err != nil {
			fmt.Fprintf(stderr, "memrecall query: %v\n", err)
			return 1
		}
		return 0
	}
	printTurn(stdout, roots, why, q, selName, r)
	return 0
}

// parseInterleaved parses flags that may stand before or after the one
// positional argument, which the flag package alone does not allow.
func parseInterleaved(fs *flag.FlagSet, args []string) (string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch len(pos) {
	case 0:
		return "", fmt.Errorf("missing query text")
	case 1:
		if strings.TrimSpace(pos[0]) == "" {
			return "", fmt.Errorf("empty query text")
		}
		return pos[0], nil
	}
	return "", fmt.Errorf("one query text expected, got %d arguments (quote the query)", len(pos))
}

// selectorFromEnv builds the OpenAI-compatible selector from the
// environment, or returns nil (deterministic only). The name shown is the
// model's, never the key. An unusable configuration (a base URL that is not
// http or https) is an error rather than a silent deterministic run.
func selectorFromEnv() (model.Selector, string, error) {
	base, name := os.Getenv(envBaseURL), os.Getenv(envModel)
	if base == "" || name == "" {
		return nil, "", nil
	}
	sel, err := model.OpenAI(model.OpenAIConfig{BaseURL: base, Model: name, APIKey: os.Getenv(envAPIKey)})
	if err != nil {
		return nil, "", err
	}
	return sel, name, nil
}

func splitTools(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// turn is what one simulated turn produced.
type turn struct {
	initial, tool recall.Injection
	trace         recall.Trace
	events        []telemetry.Event
	// initialWait is how long Plan.Initial blocked; settleWait how long
	// the simulated model request lasted before its tool result (until
	// the selector settled).
	initialWait, settleWait time.Duration
}

// runTurn runs one query on a fresh engine: Query, the initial point, a
// tool result once the selector settled, the end of the turn. The process
// asks one query, so the engine starts no warm-up (recall.Options.NoWarmUp)
// and sets no file-system watch (StatOnly): a watch answers later scans,
// and there are none (docs/decisions/0800-one-shot-process.md). The caller
// calls shutdown, which waits for the engine's goroutines and its snapshot
// write, after it has used the turn.
func runTurn(roots memory.Roots, sel model.Selector, q recall.Query, snapDir string) (r turn, shutdown func()) {
	rec := &telemetry.Recorder{}
	eng := recall.New(recall.Options{
		ProjectDir: roots.Project, UserDir: roots.User, PlainProjectNotes: roots.PlainProject,
		Selector: sel, Sink: rec, SnapshotDir: snapDir, NoWarmUp: true, StatOnly: true,
	})

	ctx := context.Background()
	plan := eng.Query(ctx, q)
	start := time.Now()
	r.initial = plan.Initial(ctx)
	r.initialWait = time.Since(start)
	<-plan.Settled()
	r.settleWait = time.Since(start)
	r.tool = plan.ToolResult()
	plan.End()
	r.trace = plan.Trace()
	r.events = rec.Events()
	return r, eng.Shutdown
}

func printTurn(w io.Writer, roots memory.Roots, why []string, q recall.Query, selName string, r turn) {
	tr := r.trace
	fmt.Fprintf(w, "query:   %q\nproject: %s\nuser:    %s\n", q.Text, orNone(roots.Project), orNone(roots.User))
	printWhy(w, why)
	fmt.Fprintf(w, "tools:   %s\n\n", orNone(strings.Join(q.RecentTools, ",")))

	lexical := lexicalCandidates(tr)
	fmt.Fprintf(w, "Ranked: %s among %s (%d kept by the noise filter; skipped %d: %s)\n",
		plural(len(tr.Ranked), "lexical match"), plural(tr.Scanned, "document"), tr.Kept, tr.Skipped.Total(), tr.Skipped)
	fmt.Fprintf(w, "Candidates for the selector: %d (%d lexical %s, %d recent %s with no lexical match, so the model can still find them)\n",
		len(tr.Candidates), lexical, pluralWord(lexical, "match"), len(tr.Candidates)-lexical, pluralWord(len(tr.Candidates)-lexical, "document"))
	if len(tr.Ranked) > 0 {
		fmt.Fprintln(w, "  SCORE is evidence in fixed-point units: each matched query word adds its rarity among these documents, more in a title or description than in a body (spec §3.5); compare scores within one query only")
		var rows [][]string
		for i, m := range tr.Ranked[:min(len(tr.Ranked), shownRanked)] {
			rows = append(rows, []string{strconv.Itoa(i + 1), strconv.Itoa(m.Score), m.Doc.Scope.String(), m.Doc.Type.String(), termSafe(m.Doc.RelPath), termSafe(m.Doc.Title)})
		}
		writeTable(w, "  ", []string{"RANK", "SCORE", "SCOPE", "TYPE", "PATH", "TITLE"}, rows)
		if more := len(tr.Ranked) - shownRanked; more > 0 {
			fmt.Fprintf(w, "  … %d more\n", more)
		}
	}
	fmt.Fprintln(w)

	printDelivery(w, "Initial prompt", r.initial, tr, selName == "")
	manifestDocs, manifestBytes := manifestSize(tr, selName)
	fmt.Fprintf(w, "Manifest: %d documents, %d bytes (limit %d)\n", manifestDocs, manifestBytes, model.MaxManifestBytes)
	if selName == "" {
		fmt.Fprintf(w, "Selector: none configured (set %s and %s): deterministic only, the lexical top five\n", envBaseURL, envModel)
	} else {
		if tr.Strategy == telemetry.StrategyHeuristic {
			fmt.Fprintf(w, "Selector: %s → strategy %s, the lexical top five", selName, tr.Strategy)
		} else {
			fmt.Fprintf(w, "Selector: %s → strategy %s, chose %d", selName, tr.Strategy, len(tr.Selected))
		}
		if tr.ErrKind != telemetry.ErrorNone {
			fmt.Fprintf(w, " (fallback after %s: %s)", tr.ErrKind, termSafe(fmt.Sprint(tr.Err)))
		}
		fmt.Fprintln(w)
		for _, id := range tr.Selected {
			fmt.Fprintf(w, "  %s\n", relOf(id, tr))
		}
	}
	printDelivery(w, "Tool result", r.tool, tr, selName == "")
	fmt.Fprintln(w)

	for _, s := range []struct {
		name string
		inj  recall.Injection
	}{{"initial prompt", r.initial}, {"tool result", r.tool}} {
		if s.inj.Empty() {
			continue
		}
		fmt.Fprintf(w, "Injected text (%s, %d bytes):\n%s\n", s.name, len(s.inj.Text), indent(termSafeBlock(s.inj.Text)))
	}

	fmt.Fprintln(w, "Telemetry (as the slog sink writes it):")
	for _, e := range r.events {
		fmt.Fprintf(w, "  %s\n", telemetryLine(e))
	}
	fmt.Fprintf(w, "\nTimings: scan %s, Query→deterministic result %s, initial wait %s, selector %s, Query→settled %s\n",
		round(tr.Scan), round(tr.Publish), round(r.initialWait), round(tr.Selector), round(tr.Settle))
}

// lexicalCandidates is how many of the selector's candidates are lexical
// matches; the rest are recent documents with no lexical match.
func lexicalCandidates(tr recall.Trace) int { return min(len(tr.Ranked), len(tr.Candidates)) }

// manifestSize is the manifest the selector got, or with no selector
// configured (no call was made) the one it would have got.
func manifestSize(tr recall.Trace, selName string) (docs, bytes int) {
	if selName == "" {
		return model.ManifestSize(tr.Candidates)
	}
	return tr.ManifestDocs, tr.ManifestBytes
}

// printDelivery prints one delivery point's documents. Without a selector
// the refined phase is the lexical top five, and the line says so rather
// than naming a refinement that did not happen.
func printDelivery(w io.Writer, point string, inj recall.Injection, tr recall.Trace, noSelector bool) {
	if inj.Empty() {
		fmt.Fprintf(w, "%s: nothing injected\n", point)
		return
	}
	if noSelector && inj.Phase == telemetry.PhaseRefined {
		fmt.Fprintf(w, "%s: %s (the lexical top five: no selector configured; telemetry phase %s, strategy %s)\n",
			point, plural(len(inj.Docs), "document"), inj.Phase, inj.Strategy)
	} else {
		fmt.Fprintf(w, "%s: %s (phase %s, strategy %s)\n", point, plural(len(inj.Docs), "document"), inj.Phase, inj.Strategy)
	}
	for _, id := range inj.Docs {
		fmt.Fprintf(w, "  %s\n", relOf(id, tr))
	}
}

// relOf shows a document as scope/relative path, as the manifest keys it,
// escaped for the terminal.
func relOf(id memory.ID, tr recall.Trace) string {
	if d := traceDoc(id, tr); d != nil {
		return termSafe(model.ManifestKey(d))
	}
	return termSafe(string(id))
}

// keyOf names a document in --json: its scope, "/" and its path exactly
// as the document's own scope and path fields give them, so a script can
// join the two. The JSON encoder escapes control characters itself; the
// manifest's key would not do here, since it spells control characters
// and whitespace in a name as "_".
func keyOf(id memory.ID, tr recall.Trace) string {
	if d := traceDoc(id, tr); d != nil {
		return d.Scope.String() + "/" + d.RelPath
	}
	return string(id)
}

// traceDoc finds a document of the trace by its ID: a candidate or a lexical
// match (the selector and the deliveries choose only among them).
func traceDoc(id memory.ID, tr recall.Trace) *memory.Document {
	for _, d := range tr.Candidates {
		if d.ID == id {
			return d
		}
	}
	for _, m := range tr.Ranked {
		if m.Doc.ID == id {
			return m.Doc
		}
	}
	return nil
}

func indent(s string) string {
	return "  │ " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  │ ") + "\n"
}

func round(d time.Duration) time.Duration {
	if d > time.Millisecond {
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// telemetryLine writes an event as the slog sink does: its message, then
// key=value under the same keys (spec §6), durations rounded for reading.
func telemetryLine(e telemetry.Event) string {
	var b strings.Builder
	b.WriteString(e.Message())
	for _, a := range e.Attrs() {
		b.WriteByte(' ')
		b.WriteString(a.Key)
		b.WriteByte('=')
		if a.Value.Kind() == slog.KindDuration {
			b.WriteString(round(a.Value.Duration()).String())
		} else {
			b.WriteString(a.Value.String())
		}
	}
	return b.String()
}
