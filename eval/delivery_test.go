package eval

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/fsm"
)

// engineCases bounds the engine-driven run's round robin: every slice
// once, so the real engine sees every kind of case without a thousand
// engines; shapedCases adds the turn shape the round robin may miss.
const engineCases = 12

// TestDeliveryEngineMatchesReplay drives the real engine through every
// scenario under testing/synctest and requires exactly the rows the replay
// on the lifecycle core gives (the replay is what the command line runs,
// because only a test can own a fake clock).
func TestDeliveryEngineMatchesReplay(t *testing.T) {
	t.Parallel()
	c := loadFixture(t)
	opts := DeliveryOptions{cases: shapedCases(t, c, engineCases), Conversations: true}
	replay, err := RunDelivery(context.Background(), c, opts)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	var engine *DeliveryResult
	synctest.Test(t, func(t *testing.T) {
		opts.Engine = true
		engine, err = RunDelivery(context.Background(), c, opts)
		if err != nil {
			t.Fatalf("engine: %v", err)
		}
	})
	if d := cmp.Diff(replay.Rows, engine.Rows); d != "" {
		t.Errorf("engine rows differ from the replay (-replay +engine):\n%s", d)
	}
	if d := cmp.Diff(replay.Reach, engine.Reach); d != "" {
		t.Errorf("engine manifest reach differs from the replay (-replay +engine):\n%s", d)
	}
	if d := cmp.Diff(replay.transcripts, engine.transcripts); d != "" {
		t.Errorf("engine conversations differ from the replay (-replay +engine):\n%s", d)
	}
	checkDeliveryRows(t, engine.Rows)
}

// shapedCases is an engine run's cases: the round robin over the slices of
// n cases, plus, if none of them has it, the first answerable case whose
// turn holds a fast delivery the selector then adds to — the ranking has
// something to deliver fast, and a relevant document the oracle will
// select lies beyond the ranking's first fsm.MaxFastDocs. That turn is
// where a delivered-twice defect (the repeat_fast mutant) shows; since the
// answer rule of decision 0209 the first cases of the round robin no
// longer hold one. It fails the test if the fixture holds no such turn.
func shapedCases(t *testing.T, c *Corpus, n int) []*Case {
	t.Helper()
	ctx := context.Background()
	sc, err := writeAndScan(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.close()
	all := deliveryCases(c, 0)
	inputs, err := collectInputs(ctx, sc.tree, sc.ids, all)
	if err != nil {
		t.Fatal(err)
	}
	picked := deliveryCases(c, n)
	for i, k := range all {
		if !addsAfterFast(inputs[i]) {
			continue
		}
		if !slices.Contains(picked, k) {
			picked = append(picked, k)
		}
		return picked
	}
	t.Fatal("no answerable case has a fast delivery the selector adds to: the engine run cannot cover that turn")
	return nil
}

// addsAfterFast reports whether a turn with these inputs delivers fast
// and then gets more from the selector: the ranking is not empty and the
// selection holds a document outside its first fsm.MaxFastDocs.
func addsAfterFast(in caseInputs) bool {
	if len(in.ranking) == 0 {
		return false
	}
	fast := in.ranking[:min(len(in.ranking), fsm.MaxFastDocs)]
	for _, d := range in.selection {
		if !slices.Contains(fast, d) {
			return true
		}
	}
	return false
}

// TestDeliveryFixture gates the replay over every answerable case.
func TestDeliveryFixture(t *testing.T) {
	t.Parallel()
	res, err := RunDelivery(context.Background(), loadFixture(t), DeliveryOptions{Conversations: true})
	if err != nil {
		t.Fatal(err)
	}
	checkDeliveryRows(t, res.Rows)
	for _, r := range res.Reach {
		t.Logf("manifest reach %-20s %3d cases %.2f", r.Slice, r.Cases, r.Reach)
		if IsLexical(r.Slice) && r.Reach < 1 {
			t.Errorf("slice %s: only %.2f of the relevant documents reach the manifest", r.Slice, r.Reach)
		}
	}
}

func checkDeliveryRows(t *testing.T, rows []DeliveryRow) {
	t.Helper()
	if len(rows) != 2*2*len(SelectorLatencies()) {
		t.Fatalf("%d rows, want one per design, turn kind and latency", len(rows))
	}
	for _, r := range rows {
		t.Logf("%-9s %-10s %5d ms  first %.2f (any %.2f)  delivered %.2f  share %.2f  dup %d  cross %d",
			r.Design, r.Turn, r.SelectorMS, r.FirstTurn, r.FirstTurnAny, r.Delivered, r.RelevantShare, r.Duplicates, r.CrossQuery)
		if r.Duplicates != 0 {
			t.Errorf("%s %s %d ms: %d duplicate deliveries", r.Design, r.Turn, r.SelectorMS, r.Duplicates)
		}
		if r.CrossQuery != 0 {
			t.Errorf("%s %s %d ms: %d cross-query deliveries", r.Design, r.Turn, r.SelectorMS, r.CrossQuery)
		}
	}
	// The point of the design: on every scenario, memrecall puts memory
	// in the first request at least as often as zero-wait, and delivers
	// at least as often overall.
	get := func(design, turn string, ms int) DeliveryRow {
		for _, r := range rows {
			if r.Design == design && r.Turn == turn && r.SelectorMS == ms {
				return r
			}
		}
		t.Fatalf("no row %s %s %d", design, turn, ms)
		return DeliveryRow{}
	}
	for _, turn := range []string{TurnToolFree, TurnToolUsing} {
		for _, l := range SelectorLatencies() {
			ms := int(l.Milliseconds())
			mine, base := get(DesignMemrecall, turn, ms), get(DesignZeroWait, turn, ms)
			if mine.FirstTurn < base.FirstTurn || mine.Delivered < base.Delivered {
				t.Errorf("%s %d ms: memrecall first %.2f delivered %.2f < zero-wait %.2f / %.2f",
					turn, ms, mine.FirstTurn, mine.Delivered, base.FirstTurn, base.Delivered)
			}
		}
		// A tool-free turn has no later point: zero-wait delivers nothing.
		if r := get(DesignZeroWait, TurnToolFree, 3000); r.Delivered != 0 {
			t.Errorf("zero-wait tool-free 3000 ms delivered %.2f, want 0", r.Delivered)
		}
	}
}
