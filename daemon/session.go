package daemon

import (
	"context"
	"sync"
	"time"

	"github.com/memrecall/memrecall/agent"
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/recall"
)

// maxRecentTools bounds the tool names a session remembers for the noise
// filter of its next query.
const maxRecentTools = 8

type sessionKey struct {
	agent agent.Name
	id    string
}

// corpus is the shared memory of one pair of roots, keyed by the
// memory.Roots it reads (project, user, and whether the project root
// holds plain notes).
type corpus struct {
	key memory.Roots
	c   *recall.Corpus
}

// session is one (agent, session_id): one conversation, at most one open
// plan. mu serialises its events, so Gemini CLI's parallel AfterTool hooks
// reach the engine one at a time (the engine's fsm delivers each document
// once either way; serialising keeps the plan variable consistent too).
type session struct {
	key    sessionKey
	corpus *corpus
	now    func() time.Time

	// life is the plans' context: a plan lives until the next query, the
	// end of its turn or the session's end, not for one hook's request.
	life   context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	eng      *recall.Engine
	plan     *recall.Plan
	tools    []string
	events   int
	injected int
	last     time.Time
	ended    bool
}

func newSession(k sessionKey, co *corpus, eng *recall.Engine, now func() time.Time) *session {
	life, cancel := context.WithCancel(context.Background())
	return &session{key: k, corpus: co, eng: eng, now: now, life: life, cancel: cancel, last: now()}
}

// idleFor reports how long the session has gone without an event at now,
// and false if it is busy: something holds mu (an event, or Status for a
// moment). It never waits: an event holds mu for as long as a cold first
// query takes, and the sweep that asks holds the server's lock (decision
// 0712).
//
// An event waiting for mu behind a running one needs no mark of its own:
// the running event holds mu until it ends, and it set last when it began,
// so the session is not idle in the moment between the two. An event that
// found the session in the server's map just before the sweep ended it
// finds it ended (handle checks ended under mu) and runs on a new session
// instead, as it would had it come after the end (Server.event).
func (se *session) idleFor(now time.Time) (time.Duration, bool) {
	if !se.mu.TryLock() {
		return 0, false
	}
	defer se.mu.Unlock()
	return now.Sub(se.last), true
}

// handle runs one event of the session; ctx bounds the initial wait. It
// returns what the hook prints and how many documents that delivers, and
// false, with nothing run, if the session has ended.
func (se *session) handle(ctx context.Context, ev agent.Event) ([]byte, int, bool) {
	se.mu.Lock()
	defer se.mu.Unlock()
	if se.ended {
		return nil, 0, false
	}
	se.events++
	se.last = se.now()
	var inj recall.Injection
	switch ev.Op {
	case agent.OpQuery:
		se.plan = se.eng.Query(se.life, recall.Query{Text: ev.Prompt, RecentTools: se.tools})
		se.awaitFirst(ctx, se.plan)
		inj = se.plan.Initial(ctx)
	case agent.OpToolResult:
		se.remember(ev.Tools)
		if se.plan != nil {
			inj = se.plan.ToolResult()
		}
	case agent.OpEnd:
		if se.plan != nil {
			se.plan.End()
			se.plan = nil
		}
	case agent.OpWarm:
		// The session exists now, and its engine is warming the corpus.
	case agent.OpReset:
		se.eng.Reset()
		se.plan = nil
	}
	se.injected += len(inj.Docs)
	return agent.Answer(ev, inj.Text), len(inj.Docs), true
}

// firstReserve is what the daemon keeps of a hook's budget, after
// waiting for a cold engine's first result, for the delivery point, the
// rendering and the answer (answerMargin is kept back besides).
const firstReserve = 25 * time.Millisecond

// awaitFirst waits, on an engine still warming and within ctx's deadline
// less firstReserve, until plan's deterministic result is published. In
// `claude -p` and `qwen -p` runs the first prompt follows SessionStart by
// milliseconds, and on a fresh daemon it is the very event that created
// the engine: the plan must scan the tree and rank it cold (the index is
// still being built), which on a loaded machine does not fit the engine's
// 100 ms initial ceiling. The hook's budget is the host's to spend, so the
// daemon waits for exactly what the answer needs — the scan and the
// ranking of this one query, not the whole index (decision 0721). On a
// warmed engine it does not wait: Initial's own ceiling applies.
func (se *session) awaitFirst(ctx context.Context, plan *recall.Plan) {
	select {
	case <-se.eng.Warmed():
		return
	default:
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		select {
		case <-plan.Published():
		case <-ctx.Done():
		}
		return
	}
	wait := time.Until(deadline.Add(-firstReserve))
	if wait <= 0 {
		return
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-plan.Published():
	case <-t.C:
	case <-ctx.Done():
	}
}

// remember keeps the latest tool names, most recent first.
func (se *session) remember(tools []string) {
	for _, t := range tools {
		se.tools = append([]string{t}, se.tools...)
	}
	if len(se.tools) > maxRecentTools {
		se.tools = se.tools[:maxRecentTools]
	}
}

// shutdown ends the session's plan and engine; later events do nothing.
func (se *session) shutdown() {
	se.mu.Lock()
	se.ended = true
	se.plan = nil
	se.mu.Unlock()
	se.cancel()
	se.eng.Shutdown()
}
