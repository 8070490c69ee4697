package eval

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/recall"
)

// The designs a delivery report compares.
const (
	// DesignMemrecall is the real engine (package recall): a bounded
	// initial wait, the two-document fast delivery, the refined
	// remainder at the next tool-result point.
	DesignMemrecall = "memrecall"
	// DesignZeroWait is the pre-design host: it polls once with zero wait
	// when the first request is built and otherwise delivers only at
	// tool-result points. It has no fast delivery.
	DesignZeroWait = "zero-wait"
)

// The turn kinds of the delivery scenarios.
const (
	// TurnToolFree: the model answers the first request directly, so the
	// initial prompt is the turn's only delivery point.
	TurnToolFree = "tool-free"
	// TurnToolUsing: the model calls two tools before answering, giving
	// two tool-result points.
	TurnToolUsing = "tool-using"
)

// SelectorLatencies are the modelled selector round trips (SPEC §7): two
// inside or near the initial budget, three well above it.
func SelectorLatencies() []time.Duration {
	return []time.Duration{40 * time.Millisecond, 250 * time.Millisecond, 600 * time.Millisecond,
		1500 * time.Millisecond, 3000 * time.Millisecond}
}

// The host's turn, timed from the moment the first model request is sent
// (after the initial wait): each model step takes modelStep, each tool
// toolRun. A tool-using turn thus reaches tool-result points at 1.2 s and
// 2.4 s and ends at 3.4 s; a tool-free turn ends at 1 s. The values sit
// far from every selector latency, so a wall-clock run on a busy machine
// decides every scenario as the fake clock does.
const (
	modelStep = 1000 * time.Millisecond
	toolRun   = 200 * time.Millisecond
	toolCalls = 2
	// userGap is the pause between the end of a turn and the next query
	// in a conversation: short, so a slow selector of one query is still
	// running when the next one starts.
	userGap = 100 * time.Millisecond
	// warmWait lets every engine's background warm-up finish before the
	// first query, as on a host that created its engine at start-up.
	warmWait = 500 * time.Millisecond
)

// DeliveryRow holds the delivery metrics of one design in one scenario.
type DeliveryRow struct {
	// Design is DesignMemrecall or DesignZeroWait.
	Design string `json:"design"`
	// Turn is TurnToolFree or TurnToolUsing.
	Turn string `json:"turn"`
	// SelectorMS is the modelled selector latency in milliseconds.
	SelectorMS int `json:"selector_ms"`
	// Turns counts the turns (answerable cases) run.
	Turns int `json:"turns"`
	// FirstTurn is the fraction of turns whose first model request
	// carried at least one relevant document.
	FirstTurn float64 `json:"first_turn"`
	// FirstTurnAny is the fraction whose first request carried any
	// memory at all.
	FirstTurnAny float64 `json:"first_turn_any"`
	// Delivered is the fraction of turns in which at least one relevant
	// document reached the model at any point of the turn.
	Delivered float64 `json:"delivered"`
	// Duplicates counts documents injected more than once in a session,
	// over the one-turn sessions and the conversation runs.
	Duplicates int `json:"duplicates"`
	// CrossQuery counts documents injected in a turn that were neither
	// ranked nor selected for that turn's query (a result that crossed a
	// query boundary). Measured on the engine only.
	CrossQuery int `json:"cross_query"`
	// InitialWaitMS is the mean time the first request was held for
	// memory, in milliseconds.
	InitialWaitMS float64 `json:"initial_wait_ms"`
}

// DeliveryOptions bound a delivery run.
type DeliveryOptions struct {
	// MaxCases caps the answerable cases used per scenario, taken round
	// robin over the slices so every slice is represented; 0 means
	// DefaultDeliveryCases.
	MaxCases int
	// Conversations runs each scenario additionally as conversations
	// (many queries in one session, userGap apart), for cross-query
	// duplicates. It multiplies the run's clock time by the number of
	// cases per conversation, so wall-clock callers leave it off.
	Conversations bool
}

// DefaultDeliveryCases is the default sample: enough to hold every slice
// twice, few enough that a wall-clock run of all scenarios at once stays a
// few seconds on a 2-core machine.
const DefaultDeliveryCases = 24

// turnResult is what the host saw in one turn.
type turnResult struct {
	initial   []string // corpus ids injected into the first request
	later     []string // corpus ids injected at tool-result points
	wait      time.Duration
	crossed   int
	selection []string // what the oracle selector answered
}

// deliveryCases picks the answerable cases of a delivery run.
func deliveryCases(c *Corpus, max int) []*Case {
	if max <= 0 {
		max = DefaultDeliveryCases
	}
	per := map[string][]*Case{}
	for i := range c.Cases {
		if k := &c.Cases[i]; !k.NoResult() {
			per[k.Slice] = append(per[k.Slice], k)
		}
	}
	var out []*Case
	for round := 0; len(out) < max; round++ {
		added := false
		for _, s := range Slices() {
			if round < len(per[s]) && len(out) < max {
				out = append(out, per[s][round])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}

// RunDelivery writes c as a memory tree and runs every delivery scenario
// on it: for each selector latency and turn kind, each sampled case is one
// turn on a fresh engine whose selector (after the latency) answers the
// case's relevant documents that are in its manifest — an ideal model, so
// the numbers measure the lifecycle, not the model. The zero-wait design
// is then replayed on the lifecycle core (fsm) with the same selection.
//
// All turns run concurrently on the clock in effect: inside a
// testing/synctest bubble the fake clock makes the run instant and exact;
// outside one it takes a few seconds of wall time.
func RunDelivery(ctx context.Context, c *Corpus, opts DeliveryOptions) ([]DeliveryRow, error) {
	dir, err := os.MkdirTemp("", "memrecall-delivery-")
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	defer os.RemoveAll(dir)
	tree, err := c.WriteTree(dir)
	if err != nil {
		return nil, err
	}
	_, ids, err := tree.Scan(ctx, c)
	if err != nil {
		return nil, err
	}
	cases := deliveryCases(c, opts.MaxCases)
	if len(cases) == 0 {
		return nil, nil
	}

	type key struct {
		turn    string
		latency time.Duration
	}
	var scenarios []key
	for _, turn := range []string{TurnToolFree, TurnToolUsing} {
		for _, l := range SelectorLatencies() {
			scenarios = append(scenarios, key{turn, l})
		}
	}
	results := make(map[key][]turnResult, len(scenarios))
	convDup := make(map[key]int, len(scenarios))
	convCross := make(map[key]int, len(scenarios))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, sc := range scenarios {
		res := make([]turnResult, len(cases))
		results[sc] = res
		for i, k := range cases {
			wg.Go(func() {
				o := newOracle(ids, []*Case{k})
				eng := newEngine(tree, o, sc.latency)
				defer eng.Shutdown()
				time.Sleep(warmWait)
				res[i] = runTurn(ctx, eng, ids, k, sc.turn)
				res[i].selection = o.answer(k)
			})
		}
		if opts.Conversations {
			wg.Go(func() {
				dup, cross := runConversation(ctx, tree, ids, cases, sc.turn, sc.latency)
				mu.Lock()
				convDup[sc], convCross[sc] = dup, cross
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}

	var rows []DeliveryRow
	for _, design := range []string{DesignZeroWait, DesignMemrecall} {
		for _, sc := range scenarios {
			row := DeliveryRow{Design: design, Turn: sc.turn, SelectorMS: int(sc.latency / time.Millisecond), Turns: len(cases)}
			var wait time.Duration
			for i, k := range cases {
				tr := results[sc][i]
				if design == DesignZeroWait {
					tr = zeroWaitTurn(k, tr.selection, sc.turn, sc.latency)
				}
				wait += tr.wait
				if len(tr.initial) > 0 {
					row.FirstTurnAny++
				}
				if anyRelevant(k, tr.initial) {
					row.FirstTurn++
				}
				if anyRelevant(k, tr.initial) || anyRelevant(k, tr.later) {
					row.Delivered++
				}
				row.Duplicates += duplicates(append(slices.Clone(tr.initial), tr.later...))
				row.CrossQuery += tr.crossed
			}
			if design == DesignMemrecall {
				row.Duplicates += convDup[sc]
				row.CrossQuery += convCross[sc]
			} else if opts.Conversations {
				row.Duplicates += zeroWaitConversation(cases, results[sc], sc.turn, sc.latency)
			}
			n := float64(len(cases))
			row.FirstTurn /= n
			row.FirstTurnAny /= n
			row.Delivered /= n
			row.InitialWaitMS = float64(wait) / n / float64(time.Millisecond)
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// oracle is an ideal selector: after the modelled latency it answers the
// relevant documents of the query's case that the manifest holds, in
// manifest order, within the limit. It records each answer so the
// zero-wait replay can use the same selection.
type oracle struct {
	ids      map[memory.ID]string
	relevant map[string][]string // by caseKey

	mu      sync.Mutex
	answers map[string][]string // by caseKey
}

// caseKey identifies a query as the selector sees it: two cases may share
// a text and differ in their recent tools.
func caseKey(query string, tools []string) string {
	return query + "\x00" + strings.Join(tools, "\x00")
}

func newOracle(ids map[memory.ID]string, cases []*Case) *oracle {
	o := &oracle{ids: ids, relevant: map[string][]string{}, answers: map[string][]string{}}
	for _, k := range cases {
		o.relevant[caseKey(k.Query, k.RecentTools)] = k.Relevant
	}
	return o
}

// selector returns the oracle as a Selector that answers after latency.
// The answer is decided (and recorded) when the call starts, from the
// manifest alone, so it does not depend on whether the call completes.
func (o *oracle) selector(latency time.Duration) model.Selector {
	return model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
		keys := o.choose(req)
		return model.Delayed{Delay: latency, Inner: model.Scripted{Answer: keys}}.Select(ctx, req)
	})
}

// choose picks and records the answer to req.
func (o *oracle) choose(req model.Request) []string {
	key := caseKey(req.Query, req.RecentTools)
	rel := o.relevant[key]
	var keys, chosen []string
	if req.Manifest != nil {
		for _, mk := range req.Manifest.Keys() {
			id, ok := req.Manifest.Lookup(mk)
			if ok && slices.Contains(rel, o.ids[id]) && len(keys) < req.EffectiveLimit() {
				keys = append(keys, mk)
				chosen = append(chosen, o.ids[id])
			}
		}
	}
	o.mu.Lock()
	o.answers[key] = chosen
	o.mu.Unlock()
	return keys
}

func (o *oracle) answer(k *Case) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.answers[caseKey(k.Query, k.RecentTools)]
}

// newEngine starts an engine on tree with the oracle behind the latency.
func newEngine(tree *Tree, o *oracle, latency time.Duration) *recall.Engine {
	return recall.New(recall.Options{
		ProjectDir: tree.Roots.Project,
		UserDir:    tree.Roots.User,
		Selector:   o.selector(latency),
	})
}

// runTurn plays one turn of kind turn for case k on eng, as a host would.
func runTurn(ctx context.Context, eng *recall.Engine, ids map[memory.ID]string, k *Case, turn string) turnResult {
	var tr turnResult
	plan := eng.Query(ctx, recall.Query{Text: k.Query, RecentTools: k.RecentTools})
	start := time.Now()
	inj := plan.Initial(ctx)
	tr.wait = time.Since(start)
	tr.initial = corpusIDs(ids, inj.Docs)
	if turn == TurnToolUsing {
		for range toolCalls {
			time.Sleep(modelStep + toolRun)
			tr.later = append(tr.later, corpusIDs(ids, plan.ToolResult().Docs)...)
		}
	}
	time.Sleep(modelStep)
	plan.End()
	tr.crossed = crossed(plan.Trace(), ids, append(slices.Clone(tr.initial), tr.later...))
	return tr
}

// crossed counts delivered documents that the plan neither ranked nor
// had selected: documents that can only have come from another query.
func crossed(t recall.Trace, ids map[memory.ID]string, delivered []string) int {
	own := map[string]bool{}
	for _, m := range t.Ranked {
		own[ids[m.Doc.ID]] = true
	}
	for _, id := range t.Selected {
		own[ids[id]] = true
	}
	n := 0
	for _, id := range delivered {
		if !own[id] {
			n++
		}
	}
	return n
}

// runConversation plays cases as consecutive turns of one session and
// returns the documents injected more than once and the cross-query
// deliveries.
func runConversation(ctx context.Context, tree *Tree, ids map[memory.ID]string, cases []*Case, turn string, latency time.Duration) (dup, cross int) {
	seen := map[string]bool{}
	cases = slices.DeleteFunc(slices.Clone(cases), func(k *Case) bool {
		key := caseKey(k.Query, k.RecentTools)
		dup := seen[key]
		seen[key] = true
		return dup // the oracle tells queries apart by text and tools
	})
	o := newOracle(ids, cases)
	eng := newEngine(tree, o, latency)
	defer eng.Shutdown()
	time.Sleep(warmWait)
	var all []string
	for _, k := range cases {
		tr := runTurn(ctx, eng, ids, k, turn)
		all = append(all, tr.initial...)
		all = append(all, tr.later...)
		cross += tr.crossed
		time.Sleep(userGap)
	}
	return duplicates(all), cross
}

// zeroWaitTurn replays one turn of the zero-wait design on the lifecycle
// core with explicit event times: the host builds the first request at
// once (before the deterministic result exists, so there is nothing fast
// to deliver), the selector settles after latency with selection, and the
// turn's tool-result points and end come at the same times as for the
// engine.
func zeroWaitTurn(k *Case, selection []string, turn string, latency time.Duration) turnResult {
	s := fsm.NewSession()
	var tr turnResult
	zeroWaitPlan(s, 0, selection, turn, latency, &tr)
	return tr
}

// zeroWaitPlan steps one zero-wait turn starting at t0 into s.
func zeroWaitPlan(s *fsm.Session, t0 time.Duration, selection []string, turn string, latency time.Duration, tr *turnResult) time.Duration {
	plan := s.Step(fsm.QueryStarted(t0)).Plan
	type step struct {
		at time.Duration
		ev func(time.Duration) fsm.Event
		to *[]string
	}
	sel := make([]fsm.DocID, len(selection))
	for i, id := range selection {
		sel[i] = fsm.DocID(id)
	}
	steps := []step{
		{t0, func(at time.Duration) fsm.Event { return fsm.InitialPoint(plan, at) }, &tr.initial},
		{t0 + latency, func(at time.Duration) fsm.Event { return fsm.SelectorSettled(plan, at, latency, sel) }, nil},
	}
	end := t0
	if turn == TurnToolUsing {
		for i := range toolCalls {
			end = t0 + time.Duration(i+1)*(modelStep+toolRun)
			steps = append(steps, step{end, func(at time.Duration) fsm.Event { return fsm.ToolResultPoint(plan, at) }, &tr.later})
		}
	}
	end += modelStep
	steps = append(steps, step{end, func(at time.Duration) fsm.Event { return fsm.TurnEnded(plan, at) }, nil})
	slices.SortStableFunc(steps, func(a, b step) int { return cmp.Compare(a.at, b.at) })
	for _, st := range steps {
		out := s.Step(st.ev(st.at))
		if st.to != nil {
			for _, d := range out.Deliver.Docs {
				*st.to = append(*st.to, string(d))
			}
		}
	}
	return end
}

// zeroWaitConversation replays the cases as one zero-wait session and
// returns the documents injected more than once.
func zeroWaitConversation(cases []*Case, res []turnResult, turn string, latency time.Duration) int {
	s := fsm.NewSession()
	var all []string
	at := time.Duration(0)
	for i := range cases {
		var tr turnResult
		at = zeroWaitPlan(s, at, res[i].selection, turn, latency, &tr) + userGap
		all = append(all, tr.initial...)
		all = append(all, tr.later...)
	}
	return duplicates(all)
}

func corpusIDs(ids map[memory.ID]string, docs []memory.ID) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = ids[d]
	}
	return out
}

func anyRelevant(k *Case, docs []string) bool {
	for _, d := range docs {
		if slices.Contains(k.Relevant, d) {
			return true
		}
	}
	return false
}

// duplicates counts the entries of docs beyond the first of each value.
func duplicates(docs []string) int {
	seen := map[string]bool{}
	n := 0
	for _, d := range docs {
		if seen[d] {
			n++
		}
		seen[d] = true
	}
	return n
}
