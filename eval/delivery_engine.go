package eval

import (
	"context"
	"fmt"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/recall"
)

// collectInputs asks the real engine, with an oracle that answers at once,
// for each case's ranking and selection. One warm engine serves every case
// in turn: nothing is delivered (no delivery point is reached), so the
// session's surfaced set stays empty and each new query simply discards
// the previous plan — the cases stay independent.
func collectInputs(ctx context.Context, tree *Tree, ids map[memory.ID]string, cases []*Case) ([]caseInputs, error) {
	o := newOracle(ids, cases)
	eng := newEngine(nil, tree, o, 0, false)
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

// newEngine starts an engine on tree with the oracle behind the latency,
// with start (recall.New when nil). oneShot makes it StatOnly (decision
// 0905): an engine for a single turn asks one query, and a delivery run
// starts one per turn, over a hundred at once in an Engine run; watched,
// they held all 128 of the user's inotify instances at once. An engine
// that answers a whole run of queries keeps its watch, which saves it a
// stat of every file per query.
func newEngine(start func(recall.Options) *recall.Engine, tree *Tree, o *oracle, latency time.Duration, oneShot bool) *recall.Engine {
	if start == nil {
		start = recall.New
	}
	return start(recall.Options{
		ProjectDir: tree.Roots.Project,
		UserDir:    tree.Roots.User,
		Selector:   o.selector(latency),
		StatOnly:   oneShot,
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
	eng := newEngine(start, tree, o, sc.latency, false)
	defer eng.Shutdown()
	time.Sleep(warmWait)
	out := make([]turnResult, len(cases))
	for i, k := range cases {
		out[i] = runTurn(ctx, eng, ids, k, turnKind(sc.turn, i, true))
		time.Sleep(userGap)
	}
	return out
}
