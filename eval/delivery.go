package eval

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/memrecall/memrecall/memory"
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

	// cases, when set, are the cases to run instead of MaxCases's round
	// robin: a test picks them by the shape of their turns.
	cases []*Case

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
	cases := opts.cases
	if cases == nil {
		cases = deliveryCases(c, opts.MaxCases)
	}
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
				eng := newEngine(opts.start, tree, o, sc.latency, true)
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
