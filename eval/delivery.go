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
	// RelevantShare is the mean fraction of a turn's relevant documents
	// that reached the model during the turn.
	RelevantShare float64 `json:"relevant_share"`
	// Duplicates counts documents injected more than once in a session,
	// over the one-turn sessions and the conversation runs.
	Duplicates int `json:"duplicates"`
	// CrossQuery counts documents injected in a turn that were neither
	// ranked nor selected for that turn's query (a result that crossed a
	// query boundary). Measured on the engine only.
	CrossQuery int `json:"cross_query"`
}

// DeliveryOptions choose how a delivery run is made.
type DeliveryOptions struct {
	// MaxCases caps the answerable cases used per scenario, taken round
	// robin over the slices so every slice is represented; 0 uses every
	// answerable case.
	MaxCases int
	// Engine drives the real engine through every turn on the clock in
	// effect, instead of replaying the turns on the lifecycle core. Use
	// it inside a testing/synctest bubble, where the fake clock makes
	// the run instant and exact; on the wall clock a loaded machine
	// distorts the timings (and the run takes seconds).
	Engine bool
	// Conversations runs each scenario additionally as one conversation
	// (every case a turn of one session, userGap apart), which is where
	// a late result could cross into the next query or a document could
	// come back.
	Conversations bool
}

// caseInputs is what the engine decided for a case before any timing
// matters: its lexical ranking and the oracle selector's answer from the
// engine's manifest.
type caseInputs struct {
	ranking   []string
	selection []string
}

// turnResult is what the host saw in one turn.
type turnResult struct {
	initial []string // corpus ids injected into the first request
	later   []string // corpus ids injected at tool-result points
	crossed int
}

// deliveryCases picks the answerable cases of a delivery run. A case
// whose query text and recent tools repeat an earlier one is left out: the
// oracle selector tells queries apart by exactly those.
func deliveryCases(c *Corpus, max int) []*Case {
	per := map[string][]*Case{}
	seen := map[string]bool{}
	total := 0
	for i := range c.Cases {
		k := &c.Cases[i]
		key := caseKey(k.Query, k.RecentTools)
		if !k.NoResult() && !seen[key] {
			seen[key] = true
			per[k.Slice] = append(per[k.Slice], k)
			total++
		}
	}
	if max <= 0 || max > total {
		max = total
	}
	var out []*Case
	for round := 0; len(out) < max; round++ {
		for _, s := range Slices() {
			if round < len(per[s]) && len(out) < max {
				out = append(out, per[s][round])
			}
		}
	}
	return out
}

// scenario is one selector latency and turn kind.
type scenario struct {
	turn    string
	latency time.Duration
}

func scenarios() []scenario {
	var out []scenario
	for _, turn := range []string{TurnToolFree, TurnToolUsing} {
		for _, l := range SelectorLatencies() {
			out = append(out, scenario{turn, l})
		}
	}
	return out
}

// RunDelivery writes c as a memory tree and measures delivery for every
// scenario (selector latency × turn kind) over the answerable cases, each
// case one turn of a fresh session.
//
// The selector is an oracle: it answers the case's relevant documents that
// the engine's manifest holds, so the numbers measure the lifecycle, not a
// model. The real engine first ranks every case and builds its manifest
// (timing plays no part there). Then each turn is played:
//   - memrecall: by default replayed on the lifecycle core (fsm) with the
//     engine's ranking and selection at the times the engine produces
//     them — the deterministic result at once, the settle after the
//     latency; with opts.Engine, driven through the real engine, which
//     a test does under testing/synctest to prove both give the same rows;
//   - zero-wait: replayed on the lifecycle core with the same selection,
//     the first request built at once, before any result exists.
func RunDelivery(ctx context.Context, c *Corpus, opts DeliveryOptions) (*DeliveryResult, error) {
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
		return &DeliveryResult{}, nil
	}
	inputs, err := collectInputs(ctx, tree, ids, cases)
	if err != nil {
		return nil, err
	}
	res := &DeliveryResult{Reach: manifestReach(cases, inputs)}

	type played struct {
		mine, base         []turnResult
		convDup, convCross int // memrecall conversation
		baseConvDup        int
	}
	runs := make(map[scenario]*played)
	var wg sync.WaitGroup
	for _, sc := range scenarios() {
		pl := &played{mine: make([]turnResult, len(cases)), base: make([]turnResult, len(cases))}
		runs[sc] = pl
		for i, k := range cases {
			pl.base[i] = replayTurn(fsm.NewSession(), 0, false, inputs[i], sc)
			if !opts.Engine {
				pl.mine[i] = replayTurn(fsm.NewSession(), 0, true, inputs[i], sc)
				continue
			}
			wg.Go(func() {
				o := newOracle(ids, []*Case{k})
				eng := newEngine(tree, o, sc.latency)
				defer eng.Shutdown()
				time.Sleep(warmWait)
				pl.mine[i] = runTurn(ctx, eng, ids, k, sc.turn)
			})
		}
		if opts.Conversations {
			pl.baseConvDup = replayConversation(false, inputs, sc)
			if opts.Engine {
				wg.Go(func() { pl.convDup, pl.convCross = runConversation(ctx, tree, ids, cases, sc) })
			} else {
				pl.convDup = replayConversation(true, inputs, sc)
			}
		}
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}

	for _, design := range []string{DesignZeroWait, DesignMemrecall} {
		for _, sc := range scenarios() {
			pl := runs[sc]
			turns, dup, cross := pl.mine, pl.convDup, pl.convCross
			if design == DesignZeroWait {
				turns, dup, cross = pl.base, pl.baseConvDup, 0
			}
			res.Rows = append(res.Rows, deliveryRow(design, sc, cases, turns, dup, cross))
		}
	}
	return res, nil
}

// DeliveryResult is what RunDelivery measured.
type DeliveryResult struct {
	// Rows hold one row per design, turn kind and selector latency.
	Rows []DeliveryRow
	// Reach holds, per slice, how much of the relevant documents reached
	// the selector's manifest.
	Reach []ReachRow
}

// ReachRow says how many of a slice's relevant documents the engine put in
// front of the selector. For the semantic slice it measures the recent
// reserve of the candidate set: the only way a document that shares no
// token with the query reaches the model.
type ReachRow struct {
	// Slice is a slice name.
	Slice string `json:"slice"`
	// Cases counts the slice's answerable cases in the delivery run.
	Cases int `json:"cases"`
	// Reach is the fraction of their relevant documents in the manifest.
	Reach float64 `json:"manifest_reach"`
}

// manifestReach computes the Reach rows in Slices() order.
func manifestReach(cases []*Case, inputs []caseInputs) []ReachRow {
	type acc struct{ cases, rel, in int }
	per := map[string]*acc{}
	for i, k := range cases {
		a := per[k.Slice]
		if a == nil {
			a = &acc{}
			per[k.Slice] = a
		}
		a.cases++
		a.rel += min(len(k.Relevant), fsm.MaxRelevantDocs)
		a.in += len(inputs[i].selection)
	}
	var rows []ReachRow
	for _, s := range Slices() {
		if a := per[s]; a != nil {
			rows = append(rows, ReachRow{Slice: s, Cases: a.cases, Reach: float64(a.in) / float64(a.rel)})
		}
	}
	return rows
}

// deliveryRow computes one row from the turns of a scenario.
func deliveryRow(design string, sc scenario, cases []*Case, turns []turnResult, dup, cross int) DeliveryRow {
	row := DeliveryRow{Design: design, Turn: sc.turn, SelectorMS: int(sc.latency / time.Millisecond),
		Turns: len(cases), Duplicates: dup, CrossQuery: cross}
	for i, k := range cases {
		tr := turns[i]
		if len(tr.initial) > 0 {
			row.FirstTurnAny++
		}
		if anyRelevant(k, tr.initial) {
			row.FirstTurn++
		}
		if anyRelevant(k, tr.initial) || anyRelevant(k, tr.later) {
			row.Delivered++
		}
		row.RelevantShare += relevantShare(k, append(slices.Clone(tr.initial), tr.later...))
		row.Duplicates += duplicates(append(slices.Clone(tr.initial), tr.later...))
		row.CrossQuery += tr.crossed
	}
	n := float64(len(cases))
	row.FirstTurn /= n
	row.FirstTurnAny /= n
	row.Delivered /= n
	row.RelevantShare /= n
	return row
}

// collectInputs asks the real engine, with an oracle that answers at once,
// for each case's ranking and selection. One warm engine serves every case
// in turn: nothing is delivered (no delivery point is reached), so the
// session's surfaced set stays empty and each new query simply discards
// the previous plan — the cases stay independent.
func collectInputs(ctx context.Context, tree *Tree, ids map[memory.ID]string, cases []*Case) ([]caseInputs, error) {
	o := newOracle(ids, cases)
	eng := newEngine(tree, o, 0)
	defer eng.Shutdown()
	out := make([]caseInputs, len(cases))
	for i, k := range cases {
		plan := eng.Query(ctx, recall.Query{Text: k.Query, RecentTools: k.RecentTools})
		select {
		case <-plan.Settled():
		case <-ctx.Done():
			return nil, fmt.Errorf("eval: %w", ctx.Err())
		}
		for _, m := range plan.Trace().Ranked {
			out[i].ranking = append(out[i].ranking, ids[m.Doc.ID])
		}
		out[i].selection = o.answer(k)
	}
	return out, nil
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
	inj := plan.Initial(ctx)
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
func runConversation(ctx context.Context, tree *Tree, ids map[memory.ID]string, cases []*Case, sc scenario) (dup, cross int) {
	o := newOracle(ids, cases)
	eng := newEngine(tree, o, sc.latency)
	defer eng.Shutdown()
	time.Sleep(warmWait)
	var all []string
	for _, k := range cases {
		tr := runTurn(ctx, eng, ids, k, sc.turn)
		all = append(all, tr.initial...)
		all = append(all, tr.later...)
		cross += tr.crossed
		time.Sleep(userGap)
	}
	return duplicates(all), cross
}

// replayTurn steps one turn into s, starting at t0, with the event times
// of the chosen design, and returns what the host injected and when the
// turn ended. memrecall: the deterministic result is published at once
// (the engine publishes a warm ranking in well under a millisecond, and at
// fake time zero under synctest), so the initial wait ends there, with the
// fast delivery; zero-wait: the first request is built at t0, before the
// result exists, so there is nothing fast to deliver. Both then see the
// settle after the latency and the turn's tool-result points and end.
func replayTurn(s *fsm.Session, t0 time.Duration, memrecall bool, in caseInputs, sc scenario) turnResult {
	tr, _ := replayTurnAt(s, t0, memrecall, in, sc)
	return tr
}

func replayTurnAt(s *fsm.Session, t0 time.Duration, memrecall bool, in caseInputs, sc scenario) (turnResult, time.Duration) {
	var tr turnResult
	plan := s.Step(fsm.QueryStarted(t0)).Plan
	type step struct {
		at time.Duration
		ev fsm.Event
		to *[]string
	}
	var steps []step
	if memrecall {
		steps = append(steps, step{t0, fsm.DeterministicPublished(plan, t0, docIDs(in.ranking), 0, 0), nil})
	}
	steps = append(steps,
		step{t0, fsm.InitialPoint(plan, t0), &tr.initial},
		step{t0 + sc.latency, fsm.SelectorSettled(plan, t0+sc.latency, sc.latency, docIDs(in.selection)), nil})
	end := t0
	if sc.turn == TurnToolUsing {
		for i := range toolCalls {
			end = t0 + time.Duration(i+1)*(modelStep+toolRun)
			steps = append(steps, step{end, fsm.ToolResultPoint(plan, end), &tr.later})
		}
	}
	end += modelStep
	steps = append(steps, step{end, fsm.TurnEnded(plan, end), nil})
	// Stable: at equal times the host's order above stands.
	slices.SortStableFunc(steps, func(a, b step) int { return cmp.Compare(a.at, b.at) })
	for _, st := range steps {
		out := s.Step(st.ev)
		if st.to != nil {
			for _, d := range out.Deliver.Docs {
				*st.to = append(*st.to, string(d))
			}
		}
	}
	return tr, end
}

// replayConversation replays every case as consecutive turns of one
// session and returns the documents injected more than once. A settle
// that falls after its turn ended is stepped into the session anyway, as
// a late result would arrive; the core must drop it.
func replayConversation(memrecall bool, inputs []caseInputs, sc scenario) int {
	s := fsm.NewSession()
	var all []string
	at := time.Duration(0)
	for i := range inputs {
		tr, end := replayTurnAt(s, at, memrecall, inputs[i], sc)
		all = append(all, tr.initial...)
		all = append(all, tr.later...)
		at = end + userGap
	}
	return duplicates(all)
}

func docIDs(ids []string) []fsm.DocID {
	out := make([]fsm.DocID, len(ids))
	for i, id := range ids {
		out[i] = fsm.DocID(id)
	}
	return out
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

// relevantShare is the fraction of k's relevant documents among docs.
func relevantShare(k *Case, docs []string) float64 {
	n := 0
	for _, id := range k.Relevant {
		if slices.Contains(docs, id) {
			n++
		}
	}
	return float64(n) / float64(len(k.Relevant))
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
