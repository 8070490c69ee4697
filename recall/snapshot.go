package recall

import (
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
// carries index's postings.
func catalogOptions(opts Options, roots memory.Roots, index *score.Index) []memory.Option {
	var o []memory.Option
	if !opts.StatOnly {
		o = append(o, memory.WithWatch())
	}
	if opts.SnapshotDir != "" {
		o = append(o, memory.WithSnapshot(memory.SnapshotPath(opts.SnapshotDir, roots), snapshotTag(), indexExtra{index}))
	}
	return o
}

// indexExtra keeps the corpus index's postings in the catalog's snapshot
// (docs/decisions/0121-frozen-index.md): a fresh process on an unchanged
// tree ranks from them without tokenising a document. The snapshot's tag,
// score.Version, covers what the postings depend on.
type indexExtra struct{ ix *score.Index }

func (x indexExtra) EncodeSnapshot(docs []*memory.Document) []byte {
	return x.ix.EncodeFrozen(docs)
}

func (x indexExtra) LoadSnapshot(docs []*memory.Document, data []byte) error {
	return x.ix.LoadFrozen(docs, data)
}

// SnapshotStats reports what the engine's catalog did with its snapshot:
// documents loaded, files ignored (corrupt, of another version, unsafe)
// and snapshots written. All zero without Options.SnapshotDir.
func (e *Engine) SnapshotStats() memory.SnapshotStats { return e.cat.SnapshotStats() }
