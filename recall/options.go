package recall

import (
	"time"

	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/telemetry"
)

// Options configure an Engine. Only the memory roots are needed; the zero
// value of every other field is a working default.
type Options struct {
	// ProjectDir is the project memory root
	// (~/.qwen/projects/<sanitized git root>/memory in Qwen Code). Empty:
	// no project memory.
	ProjectDir string
	// UserDir is the user memory root (~/.qwen/memories). Empty: no user
	// memory.
	UserDir string
	// PlainProjectNotes reads the project root's topic files without
	// frontmatter as project documents, titled by their `# ` heading, as
	// Gemini CLI writes them (memory.Roots.PlainProject). False: such a
	// file is a counted skip, the rule for Claude Code and Qwen Code.
	PlainProjectNotes bool
	// Selector is the model stage. Nil runs the deterministic stage only:
	// every plan settles at once on the lexical top five (strategy
	// heuristic), so the initial prompt carries them.
	Selector model.Selector
	// Sink receives the selection and delivery telemetry. Nil drops it.
	// The engine calls it while holding its owner lock, so that events
	// arrive in the order the lifecycle produced them: it must be quick
	// and must not call back into the engine.
	Sink telemetry.Sink
	// Corpus, when set, is the parsed and indexed memory this engine reads
	// instead of its own: engines of several conversations on the same
	// roots share one (a recall daemon serving several sessions of one
	// project). ProjectDir, UserDir and SnapshotDir are then ignored (the
	// corpus was built with its own). Nil: the engine builds its own from
	// them.
	Corpus *Corpus
	// MaxPromptBytes is the byte budget of one injected text, for hosts
	// that keep less than MaxPromptBytes of one context whole (Claude Code
	// keeps 10,000 characters). Zero or more than MaxPromptBytes means
	// MaxPromptBytes; less than MinPromptBytes means MinPromptBytes, the
	// least that still shows every document of a full delivery.
	MaxPromptBytes int
	// Clock gives the wall time used for the ages in injected text
	// ("saved 3 days ago"). Nil is time.Now. Waits and durations never
	// read it: they use the monotonic clock.
	Clock func() time.Time
	// StatOnly turns the catalog's file-system watch off: every query
	// then revalidates the tree by listing each directory and stat-ing
	// each file, as before the watch existed. By default (false) the
	// catalog watches the tree where the platform allows it (Linux
	// inotify), and a query on a tree with nothing reported since the last
	// scan reads nothing but the notification queue
	// (docs/decisions/0620-inotify-revalidation.md). The watch holds one
	// inotify descriptor until Shutdown (or Corpus.Close for a shared
	// corpus); a user has 128. A host that asks one query and exits gains
	// nothing from the watch and should set StatOnly (decision 0905).
	StatOnly bool
	// SnapshotDir is where the engine keeps the persistent snapshot of its
	// memory tree (one file per pair of roots), so that a fresh process
	// on an unchanged tree stats the files instead of reading them
	// (docs/decisions/0610-snapshot.md). Empty: no snapshot, which is the
	// off switch. DefaultSnapshotDir is the usual place.
	SnapshotDir string
	// NoWarmUp starts no warm-up: the engine neither reads nor indexes the
	// tree in the background when it is created, and its first Query scans
	// the tree itself and ranks it directly, as a query during a warm-up
	// does. It is for a host that asks one query and exits (the memrecall
	// query command): there the warm-up's index is never used, and its
	// indexing competes with the query and the output for the CPU
	// (docs/decisions/0800-one-shot-process.md). Warmed is then closed at
	// once. False, the default, suits every long-lived host.
	NoWarmUp bool
}

// warmUpEnd is what the warm-up does once it has frozen the index. New's
// engines end it with warmUpRelease; tests and benchmarks choose another
// through newEngine, so that the figures of decisions 0122 and 0811 come
// from a committed command (BenchmarkFirstQueryAfterWarmed) without a
// benchmark's switch in the public Options.
type warmUpEnd uint8

const (
	// warmUpRelease gives the build's pages back (debug.FreeOSMemory)
	// and primes the first query (primeRank): what an engine does.
	warmUpRelease warmUpEnd = iota
	// warmUpReleaseOnly gives the pages back and does not prime: the
	// warm-up before decision 0811.
	warmUpReleaseOnly
	// warmUpKeep neither gives the pages back nor primes.
	warmUpKeep
)
