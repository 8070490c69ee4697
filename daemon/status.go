package daemon

import (
	"os"
	"slices"
	"strings"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/memory"
)

// Status reports the daemon's state without any text or path: sessions
// and corpora are named by short hashes. It reads the server's state
// under the server's lock, then each session's under the session's own
// lock alone: a session busy with a cold first query makes Status wait
// for it, but not the events and the sweep that need the server's lock.
// A session's idle time is read once its lock is held, so an event that
// ended meanwhile counts; a session that ended meanwhile is not listed,
// nor counted among its corpus's sessions.
func (s *Server) Status() wire.Status {
	type open struct {
		k  sessionKey
		se *session
	}
	s.mu.Lock()
	st := wire.Status{
		PID:         os.Getpid(),
		Version:     s.version,
		UptimeMS:    time.Since(s.started).Milliseconds(),
		Selector:    s.selector != nil,
		LatenciesUS: slices.Clone(s.lat),
		Sessions:    []wire.Session{},
		Corpora:     []wire.Corpus{},
	}
	if s.cfgErr != nil {
		st.ConfigError = true
	}
	sessions := make([]open, 0, len(s.sessions))
	for k, se := range s.sessions {
		sessions = append(sessions, open{k, se})
	}
	keys := make([]memory.Roots, 0, len(s.corpora))
	for k, co := range s.corpora {
		docs, scanned := co.c.Documents()
		roots := 0
		for _, r := range []string{k.Project, k.User} {
			if r != "" {
				roots++
			}
		}
		keys = append(keys, k)
		st.Corpora = append(st.Corpora, wire.Corpus{
			Hash: corpusHash(k), Roots: roots, Docs: docs, Scanned: scanned,
			Watched: co.c.Watching(), WatchRefused: co.c.WatchRefused(),
		})
	}
	s.mu.Unlock()
	uses := map[memory.Roots]int{}
	for _, o := range sessions {
		if ws, ok := o.se.status(o.k, s.now); ok {
			st.Sessions = append(st.Sessions, ws)
			uses[o.se.corpus.key]++
		}
	}
	for i, k := range keys {
		st.Corpora[i].Sessions = uses[k]
	}
	st.WatchRefused = countWatchRefused(st.Corpora)
	slices.SortFunc(st.Sessions, func(a, b wire.Session) int { return strings.Compare(a.Agent+a.ID, b.Agent+b.ID) })
	slices.SortFunc(st.Corpora, func(a, b wire.Corpus) int { return strings.Compare(a.Hash, b.Hash) })
	return st
}

// status is the session's line in Status, read under its lock (waiting
// for an event that holds it), with its idle time at now() read then;
// false if the session has ended. A clock that stepped back reads as no
// idle time, never a negative one.
func (se *session) status(k sessionKey, now func() time.Time) (wire.Session, bool) {
	se.mu.Lock()
	defer se.mu.Unlock()
	if se.ended {
		return wire.Session{}, false
	}
	return wire.Session{
		Agent: string(k.agent), ID: hash(string(k.agent), k.id),
		Corpus: corpusHash(se.corpus.key),
		Events: se.events, Plan: se.plan != nil, Injected: se.injected,
		IdleMS: max(now().Sub(se.last), 0).Milliseconds(),
	}, true
}

// countWatchRefused returns how many of cs the kernel refused a watch:
// what Status.WatchRefused holds for Status.Corpora.
func countWatchRefused(cs []wire.Corpus) int {
	n := 0
	for _, c := range cs {
		if c.WatchRefused {
			n++
		}
	}
	return n
}

// corpusHash names a corpus in Status: two corpora of the same roots
// read with and without plain notes get different names.
func corpusHash(k memory.Roots) string {
	if k.PlainProject {
		return hash(k.Project, k.User, "plain")
	}
	return hash(k.Project, k.User)
}
