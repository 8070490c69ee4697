package recall

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memrecall/memrecall/internal/scripttest"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/telemetry"
)

// rewrite regenerates the expected output of the engine's scenario
// scripts; the flag has the same name in every package with golden files.
var rewrite = flag.Bool("rewrite", false, "rewrite the golden files: the engine scripts in recall/testdata/scripts/*.txt")

// TestEngineScripts runs every scenario script in testdata/scripts, each
// in its own synctest bubble, so the selector's latency, the initial
// ceiling and every advance are fake time: the outputs, latencies
// included, are the same on every run. A script is a list of cases in the
// cockroachdb/datadriven style:
//
//	# comment
//	<command> key=value ...
//	<input lines, for tree>
//	----
//	<expected output, up to the next blank line>
//
// The commands:
//
//	tree                     input lines: <project|user> <rel.md> type= name= desc= body= [age=<days>]
//	selector answer=a,b after=1s [deaf]
//	selector fail=<error kind> after=1s
//	                         queues the answer of the next selector call; the
//	                         last one queued answers every later call. deaf
//	                         ignores cancellation for its delay.
//	slow_scan 300ms          before the first query: each plan's scan takes that long
//	query text="..." [tools=a,b]   starts a plan (the engine starts at the first)
//	initial | tool_result | end    the latest plan's points (plan=N: an
//	                         earlier plan's)
//	settled                  waits until the plan has settled
//	advance 200ms            sleeps in the bubble, then waits for it to be idle
//	cancel                   cancels the current query's context
//	reset | shutdown         the engine's session-wide events
//	trace                    the current plan's outcome
//
// Each prints what it injected (the documents as scope/path, in order)
// and the telemetry recorded since the previous command, in order.
func TestEngineScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scripts", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no engine scripts in testdata/scripts")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { runEngineScript(t, file) })
		})
	}
}

func runEngineScript(t *testing.T, file string) {
	r := newScriptRunner(t)
	defer r.stop()
	scripttest.Run(t, file, *rewrite, r.run)
}

// scriptRunner is the state of one script: its memory tree, its selector,
// the engine (started by the first query) and the current plan.
type scriptRunner struct {
	t             *testing.T
	project, user string
	// keys maps a written file's short name (rel without .md) to its
	// manifest key, scope/rel.
	keys  map[string]string
	sel   *queuedSelector
	rec   *telemetry.Recorder
	seen  int // events already printed
	e     *Engine
	plan  *Plan
	plans map[string]*Plan // every plan started, by its number
	// slowScan is the fake time each plan's scan takes (slow_scan).
	slowScan time.Duration
	cancel   context.CancelFunc
	start    time.Time
}

func newScriptRunner(t *testing.T) *scriptRunner {
	root := t.TempDir()
	return &scriptRunner{
		t:       t,
		project: filepath.Join(root, "project"),
		user:    filepath.Join(root, "user"),
		keys:    map[string]string{},
		plans:   map[string]*Plan{},
		rec:     &telemetry.Recorder{},
		start:   time.Now(),
	}
}

// stop shuts the engine down at the end of a script, so the bubble sees
// no goroutine left.
func (r *scriptRunner) stop() {
	if r.cancel != nil {
		r.cancel()
	}
	if r.e != nil {
		r.e.Shutdown()
	}
}

func (r *scriptRunner) run(cmd string, input []string) ([]string, error) {
	name, rest, _ := strings.Cut(cmd, " ")
	args, err := parseArgs(rest)
	if err != nil {
		return nil, err
	}
	var lines []string
	switch name {
	case "tree":
		if r.e != nil {
			return nil, errors.New("tree after the engine started")
		}
		if lines, err = r.tree(input); err != nil {
			return nil, err
		}
	case "selector":
		s, err := r.selectorStep(args)
		if err != nil {
			return nil, err
		}
		if r.sel == nil {
			r.sel = &queuedSelector{}
		}
		r.sel.push(s)
		lines = append(lines, fmt.Sprintf("selector call %d: %s", len(r.sel.steps), s))
	case "query":
		if r.e == nil {
			opts := Options{ProjectDir: r.project, UserDir: r.user, Sink: r.rec,
				Clock: func() time.Time { return fixtureNow }}
			if r.sel != nil {
				opts.Selector = r.sel
			}
			r.e = New(opts)
			if d := r.slowScan; d > 0 {
				// Set before the first plan starts: only plans read it.
				r.e.beforeScan = func() { time.Sleep(d) }
			}
		}
		// The previous query's context is cancelled only after the new
		// query has replaced its plan, as a host does: cancelling it first
		// would race the context's abort against the new query's discard,
		// and the script would print either reason.
		prev := r.cancel
		ctx, cancel := context.WithCancel(context.Background())
		q := Query{Text: args["text"]}
		if tools := args["tools"]; tools != "" {
			q.RecentTools = strings.Split(tools, ",")
		}
		r.plan, r.cancel = r.e.Query(ctx, q), cancel
		if prev != nil {
			prev()
		}
		r.plans[strconv.FormatUint(uint64(r.plan.id), 10)] = r.plan
		synctest.Wait()
		lines = append(lines, fmt.Sprintf("plan %d", r.plan.id))
	case "initial":
		p, err := r.current(args)
		if err != nil {
			return nil, err
		}
		before := time.Now()
		inj := p.Initial(context.Background())
		lines = append(lines, r.injected(inj)...)
		lines = append(lines, "waited "+time.Since(before).String())
	case "tool_result":
		p, err := r.current(args)
		if err != nil {
			return nil, err
		}
		lines = append(lines, r.injected(p.ToolResult())...)
	case "end":
		p, err := r.current(args)
		if err != nil {
			return nil, err
		}
		p.End()
	case "settled":
		p, err := r.current(args)
		if err != nil {
			return nil, err
		}
		<-p.Settled()
		lines = append(lines, "settled at "+time.Since(r.start).String())
	case "slow_scan":
		if r.e != nil {
			return nil, errors.New("slow_scan after the engine started")
		}
		d, err := time.ParseDuration(strings.TrimSpace(rest))
		if err != nil {
			return nil, err
		}
		r.slowScan = d
		lines = append(lines, "each scan takes "+d.String())
	case "advance":
		d, err := time.ParseDuration(strings.TrimSpace(rest))
		if err != nil {
			return nil, err
		}
		time.Sleep(d)
		synctest.Wait()
		lines = append(lines, "t="+time.Since(r.start).String())
	case "cancel":
		if r.cancel == nil {
			return nil, errors.New("cancel before any query")
		}
		r.cancel()
		synctest.Wait()
	case "reset":
		if r.e == nil {
			return nil, errors.New("reset before any query")
		}
		r.e.Reset()
	case "shutdown":
		if r.e == nil {
			return nil, errors.New("shutdown before any query")
		}
		r.e.Shutdown()
		lines = append(lines, "shut down at "+time.Since(r.start).String())
	case "trace":
		p, err := r.current(args)
		if err != nil {
			return nil, err
		}
		tr := p.Trace()
		lines = append(lines, fmt.Sprintf("trace scanned=%d kept=%d ranked=%d manifest=%d strategy=%s error=%s selected=%s",
			tr.Scanned, tr.Kept, len(tr.Ranked), tr.ManifestDocs, tr.Strategy, tr.ErrKind, r.names(tr.Selected)))
	default:
		return nil, fmt.Errorf("unknown command %q", name)
	}
	return append(lines, r.events()...), nil
}

// current returns the plan named by plan=N, else the latest.
func (r *scriptRunner) current(args map[string]string) (*Plan, error) {
	if n, ok := args["plan"]; ok {
		p, ok := r.plans[n]
		if !ok {
			return nil, fmt.Errorf("no plan %s", n)
		}
		return p, nil
	}
	if r.plan == nil {
		return nil, errors.New("no query yet")
	}
	return r.plan, nil
}

// events returns the telemetry recorded since the last call, in order.
func (r *scriptRunner) events() []string {
	evs := r.rec.Events()
	var out []string
	for _, e := range evs[r.seen:] {
		out = append(out, e.String())
	}
	r.seen = len(evs)
	return out
}

// injected prints an injection: its phase, strategy and documents.
func (r *scriptRunner) injected(inj Injection) []string {
	if inj.Empty() {
		if inj.Text != "" {
			return []string{fmt.Sprintf("inject: none, but %d bytes of text", len(inj.Text))}
		}
		return []string{"inject: none"}
	}
	line := fmt.Sprintf("inject %s %s: %s", inj.Phase, inj.Strategy, r.names(inj.Docs))
	switch {
	case inj.Text == "":
		line += " (no text)"
	case len(inj.Text) > MaxPromptBytes:
		line += fmt.Sprintf(" (text of %d bytes, over the budget)", len(inj.Text))
	}
	return []string{line}
}

// names renders document IDs as scope/rel, the manifest's keys.
func (r *scriptRunner) names(ids []memory.ID) string {
	if len(ids) == 0 {
		return "(none)"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		s := string(id)
		if rel, err := filepath.Rel(r.project, s); err == nil && !strings.HasPrefix(rel, "..") {
			parts[i] = "project/" + filepath.ToSlash(rel)
		} else if rel, err := filepath.Rel(r.user, s); err == nil && !strings.HasPrefix(rel, "..") {
			parts[i] = "user/" + filepath.ToSlash(rel)
		} else {
			parts[i] = s
		}
	}
	return strings.Join(parts, " ")
}

// tree writes one topic file per input line; age is in days before
// fixtureNow (default: the line's number, so earlier lines are newer).
func (r *scriptRunner) tree(input []string) ([]string, error) {
	var lines []string
	n := 0
	for _, l := range input {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		n++
		fields := strings.SplitN(l, " ", 3)
		if len(fields) < 2 {
			return nil, fmt.Errorf("tree line %q: want <scope> <rel.md> key=value...", l)
		}
		args, err := parseArgs(strings.Join(fields[2:], " "))
		if err != nil {
			return nil, err
		}
		root := r.project
		switch fields[0] {
		case "project":
		case "user":
			root = r.user
		default:
			return nil, fmt.Errorf("tree line %q: scope %q", l, fields[0])
		}
		age := n
		if a, ok := args["age"]; ok {
			if age, err = strconv.Atoi(a); err != nil {
				return nil, fmt.Errorf("tree line %q: age: %w", l, err)
			}
		}
		path := filepath.Join(root, filepath.FromSlash(fields[1]))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		text := fmt.Sprintf("---\ntype: %s\nname: %s\ndescription: %s\n---\n%s\n",
			args["type"], args["name"], args["desc"], args["body"])
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return nil, err
		}
		mod := fixtureNow.Add(-time.Duration(age) * 24 * time.Hour)
		if err := os.Chtimes(path, mod, mod); err != nil {
			return nil, err
		}
		key := fields[0] + "/" + fields[1]
		r.keys[strings.TrimSuffix(fields[1], ".md")] = key
		lines = append(lines, "wrote "+key)
	}
	return lines, nil
}

// selectorStep reads one queued selector answer.
func (r *scriptRunner) selectorStep(args map[string]string) (selectorStep, error) {
	var s selectorStep
	if a, ok := args["after"]; ok {
		d, err := time.ParseDuration(a)
		if err != nil {
			return s, err
		}
		s.after = d
	}
	_, s.deaf = args["deaf"]
	if f, ok := args["fail"]; ok {
		err := failure(f)
		if err == nil {
			return s, fmt.Errorf("selector fail=%q: unknown kind", f)
		}
		s.fail, s.err = f, err
		return s, nil
	}
	if a := args["answer"]; a != "" {
		for _, name := range strings.Split(a, ",") {
			key := name
			if k, ok := r.keys[name]; ok {
				key = k
			}
			s.answer = append(s.answer, key)
		}
	}
	return s, nil
}

// failure returns an error a scripted selector can fail with, by the
// name of the kind it classifies as; nil for a name it does not know.
func failure(kind string) error {
	switch kind {
	case "http_status":
		return fmt.Errorf("selector: 401: %w", model.ErrStatus)
	case "transport":
		return fmt.Errorf("selector: connection refused: %w", model.ErrTransport)
	case "malformed":
		return fmt.Errorf("selector: %w", model.ErrMalformed)
	case "other":
		return errors.New("selector: boom")
	}
	return nil
}

// selectorStep is one scripted selector call.
type selectorStep struct {
	answer []string
	fail   string
	err    error
	after  time.Duration
	deaf   bool
}

func (s selectorStep) String() string {
	var b strings.Builder
	if s.err != nil {
		b.WriteString("fail=" + s.fail)
	} else {
		b.WriteString("answer=" + strings.Join(s.answer, ","))
	}
	fmt.Fprintf(&b, " after=%s", s.after)
	if s.deaf {
		b.WriteString(" deaf")
	}
	return b.String()
}

// queuedSelector answers the n-th call with the n-th queued step, and
// every call past the queue with the last one.
type queuedSelector struct {
	mu    sync.Mutex
	steps []selectorStep
	calls int
}

func (q *queuedSelector) push(s selectorStep) {
	q.mu.Lock()
	q.steps = append(q.steps, s)
	q.mu.Unlock()
}

// Select implements model.Selector.
func (q *queuedSelector) Select(ctx context.Context, req model.Request) ([]string, error) {
	q.mu.Lock()
	s := q.steps[min(q.calls, len(q.steps)-1)]
	q.calls++
	q.mu.Unlock()
	if s.deaf {
		time.Sleep(s.after)
	} else {
		if _, err := (model.Delayed{Delay: s.after}).Select(ctx, req); err != nil {
			return nil, err
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	return model.Scripted{Answer: s.answer}.Select(context.WithoutCancel(ctx), req)
}

// parseArgs reads space-separated key=value pairs; a value may be a Go
// quoted string, and a bare key has the value "".
func parseArgs(s string) (map[string]string, error) {
	args := map[string]string{}
	for {
		s = strings.TrimSpace(s)
		if s == "" {
			return args, nil
		}
		end := strings.IndexAny(s, "= ")
		if end < 0 || s[end] == ' ' {
			if end < 0 {
				end = len(s)
			}
			args[s[:end]] = ""
			s = s[end:]
			continue
		}
		key := s[:end]
		s = s[end+1:]
		if strings.HasPrefix(s, `"`) {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("%s=: %w", key, err)
			}
			v, err := strconv.Unquote(q)
			if err != nil {
				return nil, fmt.Errorf("%s=: %w", key, err)
			}
			args[key] = v
			s = s[len(q):]
			continue
		}
		v, after, _ := strings.Cut(s, " ")
		args[key] = v
		s = after
	}
}
