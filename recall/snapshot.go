package recall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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
// corpus's gate) is free.
func catalogOptions(opts Options, roots memory.Roots, index *score.Index, ranking *rankGate) []memory.Option {
	var o []memory.Option
	if !opts.StatOnly {
		o = append(o, memory.WithWatch())
	}
	if opts.SnapshotDir != "" {
		o = append(o, memory.WithSnapshot(memory.SnapshotPath(opts.SnapshotDir, roots), snapshotTag(), indexExtra{index, ranking}))
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
func (x indexExtra) EncodeSnapshot(docs []*memory.Document) []byte {
	for start := 0; start < len(docs); start += warmChunk {
		x.ranking.wait(context.Background())
		x.ix.Warm(docs[start:min(start+warmChunk, len(docs))])
	}
	x.ranking.wait(context.Background())
	return x.ix.EncodeFrozen(docs)
}

func (x indexExtra) LoadSnapshot(docs []*memory.Document, data []byte) error {
	return x.ix.LoadFrozen(docs, data)
}

// SnapshotStats reports what the engine's catalog did with its snapshot:
// documents loaded, files ignored (corrupt, of another version, unsafe)
// and snapshots written. All zero without Options.SnapshotDir.
func (e *Engine) SnapshotStats() memory.SnapshotStats { return e.cat.SnapshotStats() }
