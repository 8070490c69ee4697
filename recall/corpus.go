package recall

import (
	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/score"
	"sync/atomic"
)

// Corpus is the parsed and indexed memory of one pair of roots: the
// catalog that keeps the tree warm and the ranking index over it. Engines
// of several conversations on the same roots can share one through
// Options.Corpus, so a process serving many sessions of one project reads
// and indexes each file once. A Corpus is safe for concurrent use. It owns
// no goroutine but its snapshot writer, which a scan that read or removed
// files starts and which ends with the write (every engine's Shutdown
// waits for it); unless built StatOnly it holds the file-system watch's
// descriptor, which Close releases (a corpus dropped without Close
// releases it when it is garbage collected).
type Corpus struct {
	cat   *memory.Catalog
	index *score.Index
	// relaying is set while an engine's goroutine re-lays index out:
	// queries of every engine on the corpus start at most one at a time.
	relaying atomic.Bool
	// ranking holds the snapshot writer's indexing back while a plan of
	// any engine on the corpus ranks (indexExtra.EncodeSnapshot), as each
	// engine's gate holds its own warm-up back; impatient counts the
	// writes that stopped waiting for it (SnapshotStats.Impatient).
	ranking   rankGate
	impatient atomic.Int64
}

// NewCorpus returns the corpus of opts' roots (ProjectDir, UserDir,
// either may be "", and PlainProjectNotes) with opts' snapshot
// (SnapshotDir) and watch (StatOnly); the other fields are the engines'
// business. It does no I/O: the first engine on it starts the warm-up.
func NewCorpus(opts Options) *Corpus { return newCorpus(opts) }

// newCorpus is NewCorpus with extra catalog options after the ones opts
// ask for (tests turn memory's racy window off).
func newCorpus(opts Options, extra ...memory.Option) *Corpus {
	roots := memory.Roots{Project: opts.ProjectDir, User: opts.UserDir, PlainProject: opts.PlainProjectNotes}
	c := &Corpus{index: score.NewIndex()}
	c.cat = memory.NewCatalog(roots, append(catalogOptions(opts, roots, c.index, &c.ranking, &c.impatient), extra...)...)
	return c
}

// Close releases the corpus's file-system watch. Engines still using the
// corpus keep working: their queries revalidate by stat from then on. It
// is idempotent and always returns nil.
func (c *Corpus) Close() error { return c.cat.Close() }

// Watching reports whether the corpus holds a file-system watch now:
// false when built StatOnly, off Linux, after Close, and while the last
// revalidation could not be watched (memory.Catalog.Watching).
func (c *Corpus) Watching() bool { return c.cat.Watching() }

// WatchRefused reports whether the kernel refused the corpus's last full
// revalidation a watch, so it revalidates by stat
// (memory.Catalog.WatchRefused).
func (c *Corpus) WatchRefused() bool { return c.cat.WatchRefused() }

// Documents reports how many documents the last scan found, and whether
// a scan has finished yet. It reads no file.
func (c *Corpus) Documents() (int, bool) {
	last, ok := c.cat.Last()
	return len(last.Docs), ok
}
