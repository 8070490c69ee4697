package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/internal/gentree"
	"github.com/memrecall/memrecall/internal/testenv"
	"github.com/memrecall/memrecall/recall"
)

// BenchmarkRoundTrip is one hook round trip on a warm daemon, without the
// process spawn: dial, send the event, the daemon's handling, read the
// answer. "query" is a UserPromptSubmit on a 1,000-topic tree (Query, the
// initial point, rendering); "floor" is an event that maps to no op, in
// the same run, so the figures can be read as a ratio on a loaded
// machine. p50 and p99 are per-iteration latencies.
func BenchmarkRoundTrip(b *testing.B) {
	root := b.TempDir()
	project, user, _, err := gentree.Write(root, gentree.English, 1000)
	if err != nil {
		b.Fatal(err)
	}
	// The files' change times are now: wait out memory's racy window
	// (gentree.Settle; setup, not measured).
	gentree.WaitSettled(time.Now())
	g, err := gentree.New(gentree.English)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	queries := make([]string, 64)
	for i := range queries {
		queries[i] = g.Text(r, 8)
	}
	opts := Options{Dir: testenv.ShortDir(b), Config: Config{Roots: map[string]RootsConfig{"claude": {Project: project, User: user}}}}
	s, _ := serve(b, opts)
	warm(b, s, "claude")
	run := func(b *testing.B, req func(i int) wire.Request) {
		lat := make([]time.Duration, 0, 1024)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			start := time.Now()
			if _, err := Ask(opts.Dir, req(i), 10*time.Second); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(start))
			i++
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
	// The peer: the same query in process, on an engine of its own
	// corpus of the same tree — what the daemon adds is the difference.
	// "engine-statonly" is the same with the catalog's watch off: every
	// query lists and stats the tree (decision 0620's before).
	inProcess := func(b *testing.B, statOnly bool) {
		corpus := recall.NewCorpus(recall.Options{ProjectDir: project, UserDir: user, StatOnly: statOnly})
		defer corpus.Close()
		eng := recall.New(recall.Options{Corpus: corpus, MaxPromptBytes: 8000})
		defer eng.Shutdown()
		eng.Query(context.Background(), recall.Query{Text: queries[0]}).Initial(context.Background())
		lat := make([]time.Duration, 0, 1024)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			start := time.Now()
			eng.Query(context.Background(), recall.Query{Text: queries[i%len(queries)]}).Initial(context.Background())
			lat = append(lat, time.Since(start))
			i++
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
	b.Run("engine", func(b *testing.B) { inProcess(b, false) })
	b.Run("engine-statonly", func(b *testing.B) { inProcess(b, true) })
	b.Run("floor", func(b *testing.B) {
		run(b, func(int) wire.Request { return event("claude", "bench", "PreToolUse", `,"tool_name":"Bash"`) })
	})
	b.Run("query", func(b *testing.B) {
		run(b, func(i int) wire.Request {
			// One session, as in a conversation: each prompt is a new
			// plan on a warm engine.
			return event("claude", "bench-session", "UserPromptSubmit", prompt(queries[i%len(queries)]))
		})
	})
	b.Run("query-new-session", func(b *testing.B) {
		run(b, func(i int) wire.Request {
			// Each iteration is a new session: a fresh conversation, so
			// earlier deliveries do not thin out later answers.
			return event("claude", "bench-"+string(rune('a'+i%26))+string(rune('a'+i/26%26)), "UserPromptSubmit", prompt(queries[i%len(queries)]))
		})
	})
}

// BenchmarkFirstAnswer is the daemon's side of a start: a fresh daemon
// (no corpus yet) gets a session's first prompt on a 1,000-topic tree
// (files in the page cache, no snapshot) with the hook's 480 ms left.
// "published" is the daemon as it is: the query starts at once and, on the
// warming engine, the daemon waits for that query's own result
// (decision 0721). "after-warm" is the peer, what the daemon did before:
// wait for the engine's whole warm-up (scan and index), then query. Both
// run in one process, one after the other; p50/p99 in microseconds, answered-% the share of
// first prompts that got memory.
//
//	go test -run XXX -bench FirstAnswer -benchtime 40x ./daemon
func BenchmarkFirstAnswer(b *testing.B) {
	root := b.TempDir()
	project, user, _, err := gentree.Write(root, gentree.English, 1000)
	if err != nil {
		b.Fatal(err)
	}
	gentree.WaitSettled(time.Now())      // past memory's racy window (see BenchmarkRoundTrip)
	text := firstTopicPrompt(b, project) // a prompt the tree has memory for
	opts := Options{Dir: testenv.ShortDir(b), Config: Config{Roots: map[string]RootsConfig{"claude": {Project: project, User: user}}}}
	first := func(b *testing.B, oldWay bool) (time.Duration, bool) {
		s := newServer(opts)
		defer s.shutdownSessions()
		start := time.Now()
		if oldWay {
			s.Handle(event("claude", "s", "SessionStart", `,"source":"startup"`))
			s.mu.Lock()
			se := s.sessions[sessionKey{"claude", "s"}]
			s.mu.Unlock()
			<-se.eng.Warmed()
		}
		req := event("claude", "s", "UserPromptSubmit", prompt(text))
		req.BudgetMillis = 480
		out := s.Handle(req).Output
		return time.Since(start), out != ""
	}
	for _, name := range []string{"published", "after-warm"} {
		b.Run(name, func(b *testing.B) {
			lat := make([]time.Duration, 0, 64)
			answered := 0
			for b.Loop() {
				d, ok := first(b, name == "after-warm")
				lat = append(lat, d)
				if ok {
					answered++
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(100*answered)/float64(len(lat)), "answered-%")
		})
	}
}

// firstTopicPrompt is the name and description of the first topic under
// root (gentree's layout: root/d000/…).
func firstTopicPrompt(b *testing.B, root string) string {
	ents, err := os.ReadDir(filepath.Join(root, "d000"))
	if err != nil || len(ents) == 0 {
		b.Fatalf("no topic: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(root, "d000", ents[0].Name()))
	if err != nil {
		b.Fatal(err)
	}
	var words []string
	for _, line := range strings.Split(string(data), "\n") {
		for _, k := range []string{"name: ", "description: "} {
			if v, ok := strings.CutPrefix(line, k); ok {
				words = append(words, v)
			}
		}
	}
	return strings.Join(words, " ")
}

// BenchmarkSessionEnd is a SessionEnd right after a fresh daemon's first
// query, with and without a snapshot directory: answer-ms is how long the
// SessionEnd's Handle took (what the agent's hook waits for as the agent
// exits), shutdown-ms how long the session's engine then took to shut
// down (it waits for the corpus's snapshot write, which indexes the tree
// first). Each iteration is a new daemon on the same generated tree.
func BenchmarkSessionEnd(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		root := b.TempDir()
		project, user, _, err := gentree.Write(root, gentree.English, n)
		if err != nil {
			b.Fatal(err)
		}
		gentree.WaitSettled(time.Now())
		for _, snap := range []bool{false, true} {
			b.Run(fmt.Sprintf("topics=%d/snapshot=%v", n, snap), func(b *testing.B) {
				var answer, shutdown time.Duration
				for b.Loop() {
					r := RootsConfig{Project: project, User: user}
					opts := Options{Dir: testenv.ShortDir(b), Config: Config{Roots: map[string]RootsConfig{"qwen": r}}}
					if snap {
						opts.SnapshotDir = filepath.Join(b.TempDir(), "snap")
					}
					s := newServer(opts)
					s.Handle(event("qwen", "a", "UserPromptSubmit", prompt("deploy the billing service")))
					t0 := time.Now()
					s.Handle(event("qwen", "a", "SessionEnd", `,"reason":"exit"`))
					t1 := time.Now()
					s.shutdownSessions()
					answer += t1.Sub(t0)
					shutdown += time.Since(t1)
				}
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
				b.ReportMetric(ms(answer), "answer-ms")
				b.ReportMetric(ms(shutdown), "shutdown-ms")
			})
		}
	}
}
