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
func (s *Server) Status() wire.Status {
	type open struct {
		k  sessionKey
		se *session
	}
	s.mu.Lock()
	now := s.now()
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
	uses := map[memory.Roots]int{}
	sessions := make([]open, 0, len(s.sessions))
	for k, se := range s.sessions {
		sessions = append(sessions, open{k, se})
		uses[se.corpus.key]++
	}
	for k, co := range s.corpora {
		docs, scanned := co.c.Documents()
		roots := 0
		for _, r := range []string{k.Project, k.User} {
			if r != "" {
				roots++
			}
		}
		st.Corpora = append(st.Corpora, wire.Corpus{
			Hash: corpusHash(k), Roots: roots, Docs: docs, Scanned: scanned, Sessions: uses[k],
			Watched: co.c.Watching(), WatchRefused: co.c.WatchRefused(),
		})
	}
	s.mu.Unlock()
	for _, o := range sessions {
		se := o.se
		se.mu.Lock()
		st.Sessions = append(st.Sessions, wire.Session{
			Agent: string(o.k.agent), ID: hash(string(o.k.agent), o.k.id),
			Corpus: corpusHash(se.corpus.key),
			Events: se.events, Plan: se.plan != nil, Injected: se.injected,
			IdleMS: now.Sub(se.last).Milliseconds(),
		})
		se.mu.Unlock()
	}
	st.WatchRefused = wire.CountWatchRefused(st.Corpora)
	slices.SortFunc(st.Sessions, func(a, b wire.Session) int { return strings.Compare(a.Agent+a.ID, b.Agent+b.ID) })
	slices.SortFunc(st.Corpora, func(a, b wire.Corpus) int { return strings.Compare(a.Hash, b.Hash) })
	return st
}

// corpusHash names a corpus in Status: two corpora of the same roots
// read with and without plain notes get different names.
func corpusHash(k memory.Roots) string {
	if k.PlainProject {
		return hash(k.Project, k.User, "plain")
	}
	return hash(k.Project, k.User)
}
