package recall

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/score"
)

// DefaultSnapshotDir returns the usual Options.SnapshotDir:
// os.UserCacheDir()/memrecall. The snapshot holds memory content, so the
// directory is created 0700 and its files 0600.
func DefaultSnapshotDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("recall: snapshot dir: %w", err)
	}
	return filepath.Join(dir, "memrecall"), nil
}

// snapshotTag is the version the snapshot is written and trusted under,
// besides memory's own format and Unicode version: the scorer's.
func snapshotTag() string { return fmt.Sprintf("score=%d", score.Version) }

// catalogOptions returns the catalog options opts ask for; the snapshot
// carries index's postings, which its writer indexes while ranking (the
// corpus's gate) is free; impatient counts its writes that ran out of
// patience there.
func catalogOptions(opts Options, roots memory.Roots, index *score.Index, ranking *rankGate, impatient *atomic.Int64) []memory.Option {
	var o []memory.Option
	if !opts.StatOnly {
		o = append(o, memory.WithWatch())
	}
	if opts.SnapshotDir != "" {
		o = append(o, memory.WithSnapshot(memory.SnapshotPath(opts.SnapshotDir, roots), snapshotTag(), indexExtra{index, ranking, impatient}))
	}
	return o
}

// indexExtra keeps the corpus index's postings in the catalog's snapshot
// (docs/decisions/0121-frozen-index.md): a fresh process on an unchanged
// tree ranks from them without tokenising a document. The snapshot's tag,
// score.Version, covers what the postings depend on.
type indexExtra struct {
	ix *score.Index
	// ranking is the corpus's gate: held by every plan of its engines
	// from its start to its deterministic result.
	ranking *rankGate
	// impatient counts the writes that spent their whole patience at
	// the gate (SnapshotStats.Impatient).
	impatient *atomic.Int64
}

// EncodeSnapshot runs on the snapshot writer's goroutine, which a scan
// starts before its result exists: the query that made the scan then
// ranks. The postings of documents the index does not hold yet are made
// here, as the warm-up makes them: in chunks, each after the corpus's
// gate is free (decision 0832), so that the writer's indexing keeps off
// the cores while a query ranks. The gate is a courtesy, not an
// exclusion: its check and the chunk after it are not atomic, so a plan
// that enters just after the check ranks beside that chunk, and the
// encoding after the last check runs whatever the gate says, as do the
// catalog's record sort before this call and its encoding and fsync
// after it. The encoding takes the index's lock as
// score.Index.EncodeFrozen says; a query that ranks meanwhile waits in
// Rank for whichever hold of it is under way.
//
// The yielding has a budget, snapshotPatience in all for one write: a
// corpus whose plans overlap without end (a busy daemon's sessions) or a
// plan that never leaves the gate would otherwise hold the write back for
// as long, and with it every WaitSnapshot (an engine's Shutdown, the
// daemon's exit), while the next fresh process paid a full scan for the
// snapshot that was never written. Once the budget is spent the write
// goes on beside the queries, one core in the same chunks
// (docs/decisions/0837-snapshot-writer-patience.md).
func (x indexExtra) EncodeSnapshot(docs []*memory.Document) []byte {
	patience := snapshotPatience
	yield := func() {
		if patience <= 0 {
			return
		}
		if patience -= x.ranking.waitAtMost(patience); patience <= 0 {
			x.impatient.Add(1) // once a write: no wait follows
		}
	}
	for start := 0; start < len(docs); start += warmChunk {
		yield()
		x.ix.Warm(docs[start:min(start+warmChunk, len(docs))])
	}
	yield()
	return x.ix.EncodeFrozen(docs)
}

// snapshotPatience is how long one snapshot write waits at the corpus's
// gate in all before it indexes and encodes whether plans rank or not:
// longer than one cold query of a 10,000-topic Chinese or Japanese tree
// holds the gate on a loaded machine (about 2 s), so the write still
// stays out of the way of the cold query whose scan queued it.
const snapshotPatience = 5 * time.Second

func (x indexExtra) LoadSnapshot(docs []*memory.Document, data []byte) error {
	return x.ix.LoadFrozen(docs, data)
}

// SnapshotStats is what an engine's corpus did with its snapshot: the
// catalog's counts (documents loaded, files ignored, snapshots written,
// failed writes) and the writer's waits at the corpus's gate. Counts only.
type SnapshotStats struct {
	memory.SnapshotStats
	// Impatient counts the snapshot writes that spent their whole
	// patience (5 s) waiting for the corpus's plans to stop ranking and
	// went on beside them (decision 0837): plans that overlap without
	// end, or one that never leaves the gate.
	Impatient int
}

// SnapshotStats reports what the engine's corpus did with its snapshot.
// All zero without Options.SnapshotDir.
func (e *Engine) SnapshotStats() SnapshotStats {
	return SnapshotStats{e.cat.SnapshotStats(), int(e.impatient.Load())}
}
