// Command peer times memrecall side by side with Qwen Code's own memory
// recall, on the same generated trees, in interleaved rounds.
//
//	go run ./bench/peer [-sizes 200,1000,10000] [-langs en,zh,ja,mixed] [-rounds 5]
//
// It installs @qwen-code/qwen-code at its pinned version
// (internal/agentpins/pins.txt, the one the end-to-end tests run) from the
// npm registry into a work directory (default $TMPDIR/memrecall-peer),
// finds the bundle
// chunk that defines Qwen Code's memory scan (scanAutoMemoryDocumentsFromRoot)
// and ranking (selectModelCandidateDocuments), and loads that chunk in Node
// with one export line appended to a verbatim copy: the functions run
// exactly as shipped, nothing of them is re-implemented. Per tree and
// round, in an order that rotates between rounds, it times:
//
//   - qwen: Qwen's scan of both roots and its candidate selection (the
//     work before its fast result), inside one long-lived Node process;
//   - fresh: a new `memrecall query` process, start to exit (deterministic
//     only; the snapshot off, and with -snapshot also on a second time);
//   - cold: a new recall.Engine in this process, Query → settled
//     deterministic result;
//   - warm: one engine per tree that has answered before, the same.
//
// It prints the median milliseconds per cell and Qwen's time over each of
// memrecall's. The machine's load moves absolute times; the ratios come
// from the same rounds. This is slow (minutes) and is not part of
// `go test ./...`; docs/performance.md records its tables.
package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memrecall/memrecall/internal/agentpins"
	"github.com/memrecall/memrecall/internal/cputime"
	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/recall"
)

// The bundle's names for the two functions the benchmark calls.
const (
	qwenScanFunc   = "async function scanAutoMemoryDocumentsFromRoot("
	qwenSelectFunc = "function selectModelCandidateDocuments("
)

//go:embed driver.mjs
var driverJS []byte

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
}

type config struct {
	dir      string
	sizes    []int
	langs    []gentree.Lang
	rounds   int
	snapshot bool
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("peer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	fs.StringVar(&c.dir, "dir", filepath.Join(os.TempDir(), "memrecall-peer"), "work `dir`: the npm install, the binary and the trees")
	sizes := fs.String("sizes", "200,1000,10000", "comma-separated tree `sizes` in topics")
	langs := fs.String("langs", "en,zh,ja,mixed", "comma-separated `languages` (en zh ja ko th ru mixed)")
	fs.IntVar(&c.rounds, "rounds", 5, "interleaved `rounds` per tree")
	fs.BoolVar(&c.snapshot, "snapshot", false, "also time a fresh process with the persistent snapshot")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return c, fmt.Errorf("bad size %q", s)
		}
		c.sizes = append(c.sizes, n)
	}
	for _, s := range strings.Split(*langs, ",") {
		l, err := gentree.ParseLang(strings.TrimSpace(s))
		if err != nil {
			return c, err
		}
		c.langs = append(c.langs, l)
	}
	if c.rounds < 1 {
		return c, errors.New("rounds must be at least 1")
	}
	return c, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	chunk, err := installQwen(c.dir, stderr)
	if err != nil {
		return err
	}
	bin := filepath.Join(c.dir, "memrecall")
	build := exec.Command("go", "build", "-o", bin, "./cmd/memrecall")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as the README installs it (decision 0801)
	build.Stdout, build.Stderr = stderr, stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building memrecall: %w", err)
	}
	q, err := startQwen(c.dir, chunk)
	if err != nil {
		return err
	}
	defer q.close()

	var rows []row
	for _, n := range c.sizes {
		for _, lang := range c.langs {
			r, err := measureTree(c, q, bin, lang, n)
			if err != nil {
				return fmt.Errorf("%s %d: %w", lang, n, err)
			}
			rows = append(rows, r)
			fmt.Fprintf(stderr, "peer: %s %d done\n", lang, n)
		}
	}
	printTable(stdout, "Wall time, median of the rounds:", "ms", rows, c.snapshot, func(r row) map[string]float64 { return r.wall })
	printTable(stdout, "CPU time (user + system, all threads), median of the rounds:", "ms", rows, c.snapshot, func(r row) map[string]float64 { return r.cpu })
	printTable(stdout, "Minor page faults, median of the rounds (what one costs in CPU here: BenchmarkPageFault in cmd/memrecall):", "faults", rows, c.snapshot, func(r row) map[string]float64 { return r.faults })
	return nil
}

// installQwen installs the pinned package under dir (once) and returns the
// path of the loadable copy of the chunk that defines the peer's scan and
// ranking.
func installQwen(dir string, stderr io.Writer) (string, error) {
	pin, err := agentpins.Get("qwen")
	if err != nil {
		return "", err
	}
	qwenPackage := pin.Spec()
	pkg := filepath.Dir(pin.Manifest(dir))
	if v, _ := pin.Installed(dir); v != pin.Version {
		cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", dir, qwenPackage)
		cmd.Stdout, cmd.Stderr = stderr, stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("npm install %s: %w", qwenPackage, err)
		}
	}
	chunks := filepath.Join(pkg, "chunks")
	ents, err := os.ReadDir(chunks)
	if err != nil {
		return "", err
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".js") || strings.HasPrefix(e.Name(), "memrecall-peer-") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(chunks, e.Name()))
		if err != nil {
			return "", err
		}
		s := string(src)
		if !strings.Contains(s, qwenScanFunc) || !strings.Contains(s, qwenSelectFunc) {
			continue
		}
		// The copy sits next to the original so that its relative imports
		// of the other chunks resolve; only the export line is added.
		out := filepath.Join(chunks, "memrecall-peer-"+e.Name())
		exports := "\nexport { scanAutoMemoryDocumentsFromRoot as __memrecallPeerScan, selectModelCandidateDocuments as __memrecallPeerSelect };\n"
		if err := os.WriteFile(out, append(src, exports...), 0o644); err != nil {
			return "", err
		}
		return out, nil
	}
	return "", fmt.Errorf("no chunk of %s defines the memory scan and ranking", qwenPackage)
}

// qwenProc is the long-lived Node process that runs the peer's functions.
type qwenProc struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

type qwenAnswer struct {
	Ready bool     `json:"ready"`
	MS    float64  `json:"ms"`
	CPU   float64  `json:"cpu_ms"`
	Docs  int      `json:"docs"`
	Fast  []string `json:"fast"`
	// Faults is the minor page faults Node took during the request.
	Faults float64 `json:"faults"`
}

func startQwen(dir, chunk string) (*qwenProc, error) {
	driver := filepath.Join(dir, "driver.mjs")
	if err := os.WriteFile(driver, driverJS, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command("node", driver, "file://"+chunk)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting node: %w", err)
	}
	q := &qwenProc{cmd: cmd, in: in, out: bufio.NewScanner(outPipe)}
	q.out.Buffer(make([]byte, 1<<20), 1<<20)
	a, err := q.read()
	if err != nil || !a.Ready {
		q.close()
		return nil, fmt.Errorf("node driver did not start: %v", err)
	}
	return q, nil
}

func (q *qwenProc) read() (qwenAnswer, error) {
	var a qwenAnswer
	if !q.out.Scan() {
		if err := q.out.Err(); err != nil {
			return a, err
		}
		return a, io.ErrUnexpectedEOF
	}
	return a, json.Unmarshal(q.out.Bytes(), &a)
}

func (q *qwenProc) query(project, user, text string) (qwenAnswer, error) {
	req, _ := json.Marshal(map[string]string{"project": project, "user": user, "query": text})
	if _, err := q.in.Write(append(req, '\n')); err != nil {
		return qwenAnswer{}, err
	}
	return q.read()
}

func (q *qwenProc) close() {
	q.in.Close()
	_ = q.cmd.Wait()
}

// tree returns the roots of the generated tree of lang and n topics,
// writing it on first use, and its size in bytes.
func tree(dir string, lang gentree.Lang, n int) (project, user string, bytes int64, err error) {
	root := filepath.Join(dir, "trees", fmt.Sprintf("%s-%d", lang, n))
	done := filepath.Join(root, "done")
	if b, err := os.ReadFile(done); err == nil {
		bytes, _ = strconv.ParseInt(string(b), 10, 64)
		return filepath.Join(root, "project"), filepath.Join(root, "user"), bytes, nil
	}
	if err := os.RemoveAll(root); err != nil {
		return "", "", 0, err
	}
	project, user, bytes, err = gentree.Write(root, lang, n)
	if err != nil {
		return "", "", 0, err
	}
	gentree.WaitSettled(time.Now())
	return project, user, bytes, os.WriteFile(done, []byte(strconv.FormatInt(bytes, 10)), 0o644)
}

// measureTree runs the interleaved rounds on one tree and returns its
// table row.
func measureTree(c config, q *qwenProc, bin string, lang gentree.Lang, n int) (row, error) {
	project, user, bytes, err := tree(c.dir, lang, n)
	if err != nil {
		return row{}, err
	}
	g, _ := gentree.New(lang)
	text := g.Query()
	opts := recall.Options{ProjectDir: project, UserDir: user}
	warm := recall.New(opts)
	defer warm.Shutdown()
	if _, err := engineQuery(warm, text, n); err != nil { // first answer: the warm engine's cold one
		return row{}, err
	}
	// "Warm" is an engine whose warm-up has finished: timing its queries
	// while the warm-up still indexes (seconds at 10,000 CJK topics) would
	// charge the warm column with the warm-up's CPU.
	<-warm.Warmed()
	snapCache := filepath.Join(c.dir, "cache", fmt.Sprintf("%s-%d", lang, n))

	steps := []struct {
		name string
		fn   func() (sample, error)
	}{
		{"qwen", func() (sample, error) {
			a, err := q.query(project, user, text)
			if err != nil {
				return sample{}, err
			}
			if a.Docs != n {
				return sample{}, fmt.Errorf("qwen scanned %d documents, want %d", a.Docs, n)
			}
			return sample{wall: a.MS, cpu: a.CPU, faults: a.Faults}, nil
		}},
		{"fresh", func() (sample, error) { return fresh(bin, project, user, text, "") }},
		{"cold", func() (sample, error) {
			e := recall.New(opts)
			defer e.Shutdown()
			return engineQuery(e, text, n)
		}},
		{"warm", func() (sample, error) {
			warm.Reset()
			return engineQuery(warm, text, n)
		}},
	}
	if c.snapshot {
		steps = append(steps, struct {
			name string
			fn   func() (sample, error)
		}{"fresh+snap", func() (sample, error) { return fresh(bin, project, user, text, snapCache) }})
		if _, err := fresh(bin, project, user, text, snapCache); err != nil { // writes the snapshot
			return row{}, err
		}
		time.Sleep(500 * time.Millisecond)
	}
	times := make(map[string][]sample)
	for r := range c.rounds {
		for i := range steps {
			s := steps[(i+r)%len(steps)]
			d, err := s.fn()
			if err != nil {
				return row{}, fmt.Errorf("%s: %w", s.name, err)
			}
			times[s.name] = append(times[s.name], d)
		}
	}
	out := row{n: n, lang: lang, mb: float64(bytes) / 1e6, wall: map[string]float64{}, cpu: map[string]float64{}, faults: map[string]float64{}}
	for name, ss := range times {
		out.wall[name] = median(ss, func(s sample) float64 { return s.wall })
		out.cpu[name] = median(ss, func(s sample) float64 { return s.cpu })
		out.faults[name] = median(ss, func(s sample) float64 { return s.faults })
	}
	return out, nil
}

// sample is one timed run: wall and CPU milliseconds, and the minor page
// faults taken (by the process for a fresh run, by the whole benchmark
// process for an engine in it, by Node for Qwen).
type sample struct{ wall, cpu, faults float64 }

func median(ss []sample, f func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// row is one tree's medians per step.
type row struct {
	n         int
	lang      gentree.Lang
	mb        float64
	wall, cpu map[string]float64
	faults    map[string]float64
}

// printTable prints the rows' medians of one kind (wall, CPU or faults,
// in unit) and Qwen's over each of memrecall's.
func printTable(w io.Writer, title, unit string, rows []row, snapshot bool, pick func(row) map[string]float64) {
	names := []string{"fresh", "cold", "warm"}
	if snapshot {
		names = append(names, "fresh+snap")
	}
	fmt.Fprintf(w, "\n%s\n\n| topics | lang | MB | qwen %s |", title, unit)
	for _, nm := range names {
		fmt.Fprintf(w, " %s %s |", nm, unit)
	}
	for _, nm := range names {
		fmt.Fprintf(w, " qwen/%s |", nm)
	}
	fmt.Fprintf(w, "\n|---:|---|---:|---:|%s%s\n", strings.Repeat("---:|", len(names)), strings.Repeat("---:|", len(names)))
	for _, r := range rows {
		m := pick(r)
		fmt.Fprintf(w, "| %d | %s | %.1f | %.1f |", r.n, r.lang, r.mb, m["qwen"])
		for _, nm := range names {
			fmt.Fprintf(w, " %.1f |", m[nm])
		}
		for _, nm := range names {
			fmt.Fprintf(w, " %.2f |", m["qwen"]/m[nm])
		}
		fmt.Fprintln(w)
	}
}

// engineQuery times Query → the settled deterministic result (the engine
// has no selector, so it settles on publishing).
func engineQuery(e *recall.Engine, text string, n int) (sample, error) {
	c0, f0 := cputime.Usage()
	t0 := time.Now()
	p := e.Query(context.Background(), recall.Query{Text: text})
	<-p.Settled()
	d := time.Since(t0)
	c1, f1 := cputime.Usage()
	cpu, faults := c1-c0, float64(f1-f0)
	tr := p.Trace()
	p.End()
	if tr.Scanned != n {
		return sample{}, fmt.Errorf("engine scanned %d documents, want %d", tr.Scanned, n)
	}
	if len(tr.Ranked) == 0 {
		return sample{}, errors.New("engine ranked nothing")
	}
	return sample{wall: ms(d), cpu: ms(cpu), faults: faults}, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// fresh times one `memrecall query` process from start to exit. cache is
// the snapshot directory, or "" for none.
func fresh(bin, project, user, text, cache string) (sample, error) {
	cmd := exec.Command(bin, "query", text, "--project", project, "--user", user)
	cmd.Env = append(os.Environ(), "MEMRECALL_BASE_URL=", "MEMRECALL_MODEL=")
	if cache != "" {
		cmd.Env = append(cmd.Env, "MEMRECALL_CACHE_DIR="+cache)
	} else {
		cmd.Env = append(cmd.Env, "MEMRECALL_SNAPSHOT=off")
	}
	p, err := cputime.Run(cmd)
	if err != nil {
		return sample{}, fmt.Errorf("memrecall query: %w", err)
	}
	return sample{wall: ms(p.Wall), cpu: ms(p.CPU), faults: float64(p.MinorFaults)}, nil
}
