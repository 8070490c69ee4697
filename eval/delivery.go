package eval

import (
	"cmp"
	"context"
	"fmt"
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

// SelectorLatencies are the modelled selector round trips (spec §7.3): two
// inside or near the initial budget, three well above it.
func SelectorLatencies() []time.Duration {
	return []time.Duration{40 * time.Millisecond, 250 * time.Millisecond, 600 * time.Millisecond,
		1500 * time.Millisecond, 3000 * time.Millisecond}
}

// The host's turn, timed from the moment the first model request is sent
// (after the initial wait): each model step takes modelStep, each tool
// toolRun. A tool-using turn thus reaches tool-result points at 1.2 s and
// 2.4 s and ends at 3.4 s; a tool-free turn ends at 1 s. Every boundary
// sits at least 200 ms from every selector latency, so no scenario hangs on
// the order of two events at the same instant.
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
	// CrossQuery counts documents injected in a turn that its own plan
	// cannot account for — in the first request, neither ranked nor
	// selected for the turn's query; at a tool result, not selected for
	// it: a result that crossed a query boundary.
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
	// (every case a turn of one session, userGap apart, turn kinds
	// alternating from the scenario's), which is where a late result could
	// cross into the next query or a document could come back.
	Conversations bool

	// start builds the engines of an Engine run; nil is recall.New. The
	// mutation test swaps in deliberately broken engines to show the
	// delivery gates catch them.
	start func(recall.Options) *recall.Engine
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
	sc, err := writeAndScan(ctx, c)
	if err != nil {
		return nil, err
	}
	defer sc.close()
	return runDelivery(ctx, c, sc.tree, sc.ids, opts)
}

// runDelivery is RunDelivery on a corpus already written and scanned.
func runDelivery(ctx context.Context, c *Corpus, tree *Tree, ids map[memory.ID]string, opts DeliveryOptions) (*DeliveryResult, error) {
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
		mine, base     []turnResult
		conv, baseConv []turnResult // the conversations, if run
	}
	runs := make(map[scenario]*played)
	var wg sync.WaitGroup
	for _, sc := range scenarios() {
		pl := &played{mine: make([]turnResult, len(cases)), base: make([]turnResult, len(cases))}
		runs[sc] = pl
		for i, k := range cases {
			pl.base[i] = replaySession(false, inputs[i:i+1], sc, false)[0]
			if !opts.Engine {
				pl.mine[i] = replaySession(true, inputs[i:i+1], sc, false)[0]
				continue
			}
			wg.Go(func() {
				o := newOracle(ids, []*Case{k})
				eng := newEngine(opts.start, tree, o, sc.latency)
				defer eng.Shutdown()
				time.Sleep(warmWait)
				pl.mine[i] = runTurn(ctx, eng, ids, k, sc.turn)
			})
		}
		if opts.Conversations {
			pl.baseConv = replaySession(false, inputs, sc, true)
			if opts.Engine {
				wg.Go(func() { pl.conv = runConversation(ctx, opts.start, tree, ids, cases, sc) })
			} else {
				pl.conv = replaySession(true, inputs, sc, true)
			}
		}
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}

	res.transcripts = map[string][]string{}
	for _, design := range []string{DesignZeroWait, DesignMemrecall} {
		for _, sc := range scenarios() {
			pl := runs[sc]
			turns, conv := pl.mine, pl.conv
			if design == DesignZeroWait {
				turns, conv = pl.base, pl.baseConv
			}
			dup, cross := conversationCounts(conv)
			row := deliveryRow(design, sc, cases, turns, dup, cross)
			res.Rows = append(res.Rows, row)
			res.transcripts[fmt.Sprintf("%s %s %d ms", design, sc.turn, row.SelectorMS)] = transcript(cases, conv)
		}
	}
	return res, nil
}

// transcript renders what each turn of a conversation injected, one line
// per turn, so two runs can be compared line by line.
func transcript(cases []*Case, turns []turnResult) []string {
	out := make([]string, len(turns))
	for i, tr := range turns {
		out[i] = fmt.Sprintf("%s: initial %v, tool results %v", cases[i].ID, tr.initial, tr.later)
	}
	return out
}

// DeliveryResult is what RunDelivery measured.
type DeliveryResult struct {
	// Rows hold one row per design, turn kind and selector latency.
	Rows []DeliveryRow
	// Reach holds, per slice, how much of the relevant documents reached
	// the selector's manifest.
	Reach []ReachRow

	// transcripts hold, per design and scenario, what each turn of the
	// conversation injected (empty without Conversations).
	transcripts map[string][]string
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
	eng := newEngine(nil, tree, o, 0)
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

// newEngine starts an engine on tree with the oracle behind the latency,
// with start (recall.New when nil).
func newEngine(start func(recall.Options) *recall.Engine, tree *Tree, o *oracle, latency time.Duration) *recall.Engine {
	if start == nil {
		start = recall.New
	}
	return start(recall.Options{
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
	tr.crossed = crossed(plan.Trace(), ids, tr)
	return tr
}

// crossed counts delivered documents that cannot have come from the
// turn's own plan: a first-request document the plan neither ranked nor
// had selected, or a tool-result document outside its selection (the
// oracle never fails, so no heuristic fallback stands in for it).
func crossed(t recall.Trace, ids map[memory.ID]string, tr turnResult) int {
	in := caseInputs{}
	for _, m := range t.Ranked {
		in.ranking = append(in.ranking, ids[m.Doc.ID])
	}
	for _, id := range t.Selected {
		in.selection = append(in.selection, ids[id])
	}
	return crossedIDs(in, tr)
}

// runConversation plays cases as consecutive turns of one session on the
// engine and returns what each turn injected.
func runConversation(ctx context.Context, start func(recall.Options) *recall.Engine, tree *Tree, ids map[memory.ID]string, cases []*Case, sc scenario) []turnResult {
	o := newOracle(ids, cases)
	eng := newEngine(start, tree, o, sc.latency)
	defer eng.Shutdown()
	time.Sleep(warmWait)
	out := make([]turnResult, len(cases))
	for i, k := range cases {
		out[i] = runTurn(ctx, eng, ids, k, turnKind(sc.turn, i, true))
		time.Sleep(userGap)
	}
	return out
}

// replaySession plays the cases as consecutive turns of one session on
// the lifecycle core, at the event times of the chosen design, and returns
// what the host injected in each turn. Turns follow each other userGap
// apart; every event of every turn is stepped in time order, so a settle
// that comes after its turn ended lands while the next query is open, as
// a late result would — the core must drop it.
//
// memrecall: the deterministic result is published at once (the engine
// publishes a warm ranking in well under a millisecond, and at fake time
// zero under synctest), so the initial wait ends there, with the fast
// delivery. zero-wait: the first request is built at the query's start,
// before any result exists, so there is nothing fast to deliver. Both then
// see the settle after the latency and the turn's tool-result points and
// end.
func replaySession(memrecall bool, inputs []caseInputs, sc scenario, alternate bool) []turnResult {
	type step struct {
		at   time.Duration
		turn int
		ev   func(fsm.PlanID) fsm.Event
		to   int // 0: nothing to collect, 1: initial, 2: later
	}
	var steps []step
	t0 := time.Duration(0)
	for i, in := range inputs {
		at := t0
		ranking, selection := docIDs(in.ranking), docIDs(in.selection)
		if memrecall {
			steps = append(steps, step{at, i, func(p fsm.PlanID) fsm.Event { return fsm.DeterministicPublished(p, at, ranking, 0, 0) }, 0})
		}
		steps = append(steps,
			step{at, i, func(p fsm.PlanID) fsm.Event { return fsm.InitialPoint(p, at) }, 1},
			step{at + sc.latency, i, func(p fsm.PlanID) fsm.Event {
				return fsm.SelectorSettled(p, at+sc.latency, sc.latency, selection)
			}, 0})
		end := at
		if turnKind(sc.turn, i, alternate) == TurnToolUsing {
			for range toolCalls {
				end += modelStep + toolRun
				point := end
				steps = append(steps, step{point, i, func(p fsm.PlanID) fsm.Event { return fsm.ToolResultPoint(p, point) }, 2})
			}
		}
		end += modelStep
		steps = append(steps, step{end, i, func(p fsm.PlanID) fsm.Event { return fsm.TurnEnded(p, end) }, 0})
		t0 = end + userGap
	}
	// Stable: at equal times the host's order above stands.
	slices.SortStableFunc(steps, func(a, b step) int { return cmp.Compare(a.at, b.at) })

	s := fsm.NewSession()
	plans := make([]fsm.PlanID, len(inputs))
	started := 0
	out := make([]turnResult, len(inputs))
	for _, st := range steps {
		for started <= st.turn {
			// A turn's query starts at its first event; starting it
			// discards the previous plan (new_query).
			plans[started] = s.Step(fsm.QueryStarted(st.at)).Plan
			started++
		}
		o := s.Step(st.ev(plans[st.turn]))
		for _, d := range o.Deliver.Docs {
			switch st.to {
			case 1:
				out[st.turn].initial = append(out[st.turn].initial, string(d))
			case 2:
				out[st.turn].later = append(out[st.turn].later, string(d))
			}
		}
	}
	for i, in := range inputs {
		out[i].crossed = crossedIDs(in, out[i])
	}
	return out
}

// turnKind is the kind of the i-th turn of a session: first throughout,
// or alternating between the two kinds starting with first. Alternation is
// what gives a slow selector of a short tool-free turn the chance to
// settle while the next, tool-using turn is open — the moment a result
// could cross a query boundary.
func turnKind(first string, i int, alternate bool) string {
	if !alternate || i%2 == 0 {
		return first
	}
	if first == TurnToolFree {
		return TurnToolUsing
	}
	return TurnToolFree
}

// crossedIDs counts the documents of tr that in cannot account for: in
// the first request, documents neither ranked nor selected; at tool
// results, documents not selected.
func crossedIDs(in caseInputs, tr turnResult) int {
	n := 0
	for _, id := range tr.initial {
		if !slices.Contains(in.ranking, id) && !slices.Contains(in.selection, id) {
			n++
		}
	}
	for _, id := range tr.later {
		if !slices.Contains(in.selection, id) {
			n++
		}
	}
	return n
}

// conversationCounts returns the duplicate and cross-query deliveries of
// a conversation's turns (none without a conversation).
func conversationCounts(turns []turnResult) (dup, cross int) {
	var all []string
	for _, tr := range turns {
		all = append(all, tr.initial...)
		all = append(all, tr.later...)
		cross += tr.crossed
	}
	return duplicates(all), cross
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
