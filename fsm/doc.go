// Package fsm is memrecall's recall lifecycle (spec §5) as a pure,
// synchronous state machine: no I/O, no goroutines, no clock. The engine
// (package recall) drives it in the etcd-raft style — the core decides,
// the host acts: every input is an Event passed to Session.Step, every
// decision comes back as an Output value saying what to inject now and
// which telemetry to emit.
//
// # Plans and states
//
// Each user query starts a plan. A plan is pending, then possibly
// fast-delivered, and ends refined-delivered or discarded. The transition
// table in table.go is the one statement of the lifecycle: rows of
// (state, trigger, named guard, named action, next state), which Step
// runs and which configure a qmuntal/stateless machine for DOT and
// Mermaid. Only the latest
// plan is current: events naming any other plan are dropped, which is how
// a late selector answer of an old query never reaches the new one.
//
// # Documents
//
// The session keeps the set of documents surfaced since the last reset
// and excludes them from every later delivery, so no document is injected
// twice. Deliveries are capped: MaxFastDocs for the fast result,
// MaxRelevantDocs for a refined one. The output is authoritative: the
// host injects exactly Output.Deliver.Docs.
//
// # A host loop
//
// The engine owns one Session per conversation and feeds it from one
// goroutine. Times are offsets on the engine's monotonic clock. A whole
// turn, with the selector slower than the initial wait:
//
//	s := fsm.NewSession()
//
//	// The user sends a query. Any open plan is discarded (new_query);
//	// out.Closed names it so its selector call can be cancelled.
//	out := s.Step(fsm.QueryStarted(now()))
//	plan := out.Plan
//	emit(out)
//
//	// The scan and ranking finish; the selector call starts.
//	emit(s.Step(fsm.DeterministicPublished(plan, now(), ranking, scanned, scanTook)))
//
//	// The initial wait ends (here because the ranking was published).
//	// The selector has not settled, so this is the fast delivery: the
//	// top two ranked documents not surfaced before.
//	out = s.Step(fsm.InitialPoint(plan, now()))
//	prompt := render(out.Deliver.Docs) // exactly these documents
//	emit(out)
//
//	// The selector answers a second later, while the model is working.
//	// The result waits for a safe point.
//	emit(s.Step(fsm.SelectorSettled(plan, now(), selectorTook, chosen)))
//
//	// The model called a tool; its result is going back. The refined
//	// remainder (chosen minus what the fast delivery already injected)
//	// goes into this prompt.
//	out = s.Step(fsm.ToolResultPoint(plan, now()))
//	appendAfterToolResponses(render(out.Deliver.Docs))
//	emit(out)
//
//	// No further request: the turn ends. The plan is already terminal,
//	// so nothing happens; had the turn had no tool call, this would
//	// discard the plan with no_safe_delivery_point (or, had it settled
//	// with nothing to deliver, with no_relevant_results or
//	// already_delivered: turn_end_reason.txt).
//	emit(s.Step(fsm.TurnEnded(plan, now())))
//
// where emit sends out.Telemetry to the host's telemetry.Sink
// (out.Send(sink)) and cancels the selector call of out.Closed, if any.
//
// When the selector fails or hits its ceiling, the engine steps
// SelectorFailed instead and the lexical top five stand in for its answer
// (strategy heuristic). Abort cancels one plan; Reset and Shutdown act on
// the whole session.
//
// # Telemetry
//
// A plan emits one selection event when its selector settles (none if the
// plan ends first), one delivery event per delivery, and exactly one
// terminal outcome: a refined delivery or a discard (phase refined,
// delivery point discarded, with its reason). A plan that delivered fast
// and then lost its turn therefore has two delivery events: fast at
// initial, and the refined discard. Discards count zero documents, so the
// document counts of all delivery events add up to the documents
// injected.
//
// # Concurrency
//
// Nothing here is safe for concurrent use, and nothing needs to be: the
// engine serialises events through one owner.
package fsm
