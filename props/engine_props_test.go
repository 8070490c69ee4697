package props

import (
	"flag"
	"math/rand/v2"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"pgregory.net/rapid"
)

// engineCeiling is recall's initial-wait ceiling (an internal constant of
// the engine, restated here as the liveness bound the suite holds it to).
//
// The bound has no margin, and needs none: the harness runs only inside
// TestEngineLifecycle's synctest bubble, where time.Now is the bubble's
// fake clock. It moves only when every goroutine of the bubble is durably
// blocked, so an Initial that waits out its timer has waited exactly the
// ceiling, however loaded the machine and with or without -race; only an
// engine that waits on past its timer (the ignore_ceiling mutant) reads
// more. In real time the same check would need a margin for the
// scheduler, and would then prove less.
const engineCeiling = 100 * time.Millisecond

// engineInvariantsOnlyEnv, set to 1, makes the suite judge the engine by
// its model-free invariants alone (the mutation runner uses it to show the
// invariants catch each defect without the model's help).
const engineInvariantsOnlyEnv = "MEMRECALL_ENGINE_INVARIANTS_ONLY"

// engineChecks is how many rapid checks the engine suite runs: a tenth of
// rapid's configured count (RAPID_CHECKS or -rapid.checks), at least 100.
// One engine check builds a real engine on a real tree and drives a whole
// session, about a hundred times the work of one fsm check, so CI's
// RAPID_CHECKS=10000 gives 1,000 engine sessions (tens of thousands of
// interleaved events) in well under two minutes.
func engineChecks() int {
	n := 100
	if f := flag.Lookup("rapid.checks"); f != nil {
		if v, err := strconv.Atoi(f.Value.String()); err == nil {
			n = v
		}
	}
	return max(100, n/10)
}

// withChecks runs f with rapid's check count set to n. rapid reads its
// flag when a check starts; the props tests do not run in parallel.
func withChecks(t *testing.T, n int, f func()) {
	f0 := flag.Lookup("rapid.checks")
	if f0 == nil {
		f()
		return
	}
	old := f0.Value.String()
	if err := flag.Set("rapid.checks", strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = flag.Set("rapid.checks", old) }()
	// rapid seeds itself from the clock, which a synctest bubble fixes at
	// 2000-01-01: every run would replay the same sessions. Draw the seed
	// from math/rand/v2's runtime-seeded source instead, unless one was
	// given (rapid prints it on failure: RAPID_SEED=... reproduces).
	if s := flag.Lookup("rapid.seed"); s != nil && s.Value.String() == "0" {
		if err := flag.Set("rapid.seed", strconv.FormatUint(rand.Uint64()|1, 10)); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = flag.Set("rapid.seed", "0") }()
	}
	f()
}

// TestEngineLifecycle is the model-based property suite over the real
// recall engine, on a real memory tree, with scripted selectors of drawn
// latency, failure and answer. Time is testing/synctest's fake clock: the
// initial ceiling, selector delays and the 30 s selector timeout pass
// without real waiting, and after every action the suite waits until every
// engine goroutine is idle, so each outcome is decided by the fake clock,
// not by the scheduler. Some actions run several host calls on separate
// goroutines at once.
//
// Properties, checked after every host call:
//
//   - no cross-query leakage: an injection holds only documents that match
//     its own query lexically or that its own selector named;
//   - no double injection between resets;
//   - bounded prompts: at most 5 documents, a fast one at most 2, text
//     within recall.MaxPromptBytes with one heading per document;
//   - fast only from Initial, once per plan, never after the plan's
//     refined delivery or after the host ended, aborted or replaced it;
//   - at most one refined delivery per plan; after Shutdown, exactly one
//     terminal telemetry event per plan, and delivery telemetry counts
//     exactly the documents injected (also per call);
//   - privacy: queries and documents carry random marker strings; no
//     serialized telemetry event holds one, nor a path or file name;
//   - liveness: Initial returns within the ceiling;
//   - the deliveries equal a plain model of spec §4–§5 (selection,
//     exclusion, fast, refined remainder, discards) whenever the
//     interleaving is sequential and no event tied with a settle.
func TestEngineLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := newEngineTree(t, rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)))
		runs := 0
		stats := map[string]int{}
		withChecks(t, engineChecks(), func() {
			rapid.Check(bubbleTB{t}, func(rt *rapid.T) {
				runs++
				h := newEngineHarness(rt, tr)
				h.stats = stats
				defer h.close(rt)
				actions := h.actions()
				// Sessions start with a user's message: rapid ends a run
				// at an action that skips in its first step, and every
				// call but query needs a plan.
				actions["query"](rt)
				rt.Repeat(actions)
			})
		})
		// rapid stops early when it thinks the test's deadline is near;
		// under the fake clock that would be a silent cut. Hold it to the
		// count this suite promises.
		want := engineChecks()
		if testing.Short() {
			want /= 5 // rapid's own -short rule
		}
		if !t.Failed() && runs < want {
			t.Errorf("rapid ran %d engine sessions, want at least %d", runs, want)
		}
		t.Logf("%d engine sessions; outcomes: %v", runs, stats)
	})
}

// bubbleTB hides *testing.T's type from rapid, which otherwise calls
// t.Deadline — forbidden inside a synctest bubble. rapid then assumes a
// 24 h deadline, measured on the bubble's fake clock.
type bubbleTB struct{ *testing.T }
