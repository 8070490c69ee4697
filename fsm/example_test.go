package fsm_test

import (
	"fmt"
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/telemetry"
)

// A tool-using turn whose selector is slower than the initial wait: the
// fast result goes into the initial prompt, the refined remainder after
// the tool result.
func ExampleSession_Step() {
	s := fsm.NewSession()
	var sink telemetry.Recorder
	ms := time.Millisecond

	out := s.Step(fsm.QueryStarted(0))
	plan := out.Plan
	s.Step(fsm.DeterministicPublished(plan, 25*ms, []fsm.DocID{"style", "deploy", "oncall"}, 120, 10*ms))

	out = s.Step(fsm.InitialPoint(plan, 25*ms))
	out.Send(&sink)
	fmt.Println("initial prompt:", out.Deliver.Docs)

	out = s.Step(fsm.SelectorSettled(plan, 900*ms, 875*ms, []fsm.DocID{"deploy", "oncall"}))
	out.Send(&sink)

	out = s.Step(fsm.ToolResultPoint(plan, 1500*ms))
	out.Send(&sink)
	fmt.Println("after the tool result:", out.Deliver.Docs, "state:", s.State())

	for _, e := range sink.Events() {
		fmt.Println(e)
	}
	// Output:
	// initial prompt: [style deploy]
	// after the tool result: [oncall] state: refined-delivered
	// delivery phase=fast point=initial strategy=heuristic docs=2 latency=25ms
	// selection strategy=model scanned=120 selected=2 scan=10ms fast=25ms selector=875ms total=900ms
	// delivery phase=refined point=tool_result strategy=model docs=1 latency=1.5s
}

// Scenario scripts and failing property runs write events in this form.
func ExampleParseEvent() {
	ev, err := fsm.ParseEvent("selector_settled plan=2 at=1.2s docs=a,b took=1.1s")
	if err != nil {
		panic(err)
	}
	fmt.Println(ev.Trigger, ev.Plan, ev.At, ev.Docs)
	fmt.Println(ev)
	// Output:
	// selector_settled 2 1.2s [a b]
	// selector_settled plan=2 at=1.2s docs=a,b took=1.1s
}
