// Package recall is the engine a host agent imports: it decides which
// long-term memory documents go in front of the model, and when.
//
// An Engine is one conversation. It keeps the memory catalog of the
// project and user trees warm, runs each query's scan, ranking and model
// selector call on its own goroutine, and feeds every lifecycle event
// through one owner into the pure lifecycle core (package fsm), which
// decides what is delivered. The engine renders what the core decides
// into prompt text within MaxPromptDocs documents and MaxPromptBytes, and
// sends the privacy-safe telemetry to the host's Sink.
//
// # A host loop
//
//	eng := recall.New(recall.Options{
//		ProjectDir: projectMemoryDir, // ~/.qwen/projects/<root>/memory
//		UserDir:    userMemoryDir,    // ~/.qwen/memories
//		Selector:   selector,         // model.OpenAI(...), or nil: deterministic only
//		Sink:       telemetry.Slog(logger),
//	})
//	defer eng.Shutdown()
//
//	// The user sends a message.
//	plan := eng.Query(ctx, recall.Query{Text: userText, RecentTools: tools})
//
//	// Before the first model request: waits at most a short ceiling,
//	// normally only until the local ranking is ready (a few ms).
//	if inj := plan.Initial(ctx); !inj.Empty() {
//		prompt = inj.Text + "\n\n" + prompt
//	}
//	for {
//		reply := callModel(prompt)
//		if !reply.HasToolCalls() {
//			break
//		}
//		prompt = runTools(reply)
//		// Never blocks: the model's refined choice, minus what the
//		// initial prompt already carried, once it has arrived.
//		if inj := plan.ToolResult(); !inj.Empty() {
//			prompt += "\n\n" + inj.Text
//		}
//	}
//	plan.End() // the turn is over; an undelivered result is discarded
//
// A new Query discards the previous plan; Reset starts the conversation
// afresh (documents may be delivered again); Plan.Abort, or cancelling the
// context given to Query, drops one plan. Every method is safe for
// concurrent use, and calls on an ended plan return nothing.
//
// # Guarantees
//
//   - A document is injected at most once per conversation between resets,
//     and only into a prompt of the query that found it.
//   - Every injection holds at most MaxPromptDocs documents (MaxFastDocs
//     for the fast one) and MaxPromptBytes of text; each body is cut at
//     1,200 characters with a visible note and fenced so that nothing in
//     it can close its block.
//   - Every plan ends with exactly one terminal delivery event, and the
//     document counts of delivery events equal the documents injected.
//   - No goroutine of the engine outlives Shutdown.
//
// Design notes: docs/decisions/0600-engine.md and the 06xx notes beside it.
package recall
