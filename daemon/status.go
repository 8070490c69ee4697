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
// and corpora are named by short hashes.
func (s *Server) Status() wire.Status {
	s.mu.Lock()
	defer s.mu.Unlock()
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
	for k, se := range s.sessions {
		se.mu.Lock()
		st.Sessions = append(st.Sessions, wire.Session{
			Agent: string(k.agent), ID: hash(string(k.agent), k.id),
			Corpus: corpusHash(se.corpus.key),
			Events: se.events, Plan: se.plan != nil, Injected: se.injected,
			IdleMS: now.Sub(se.last).Milliseconds(),
		})
		se.mu.Unlock()
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
