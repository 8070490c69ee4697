package memory

import (
	"errors"
	"io/fs"
	"syscall"
	"time"
)

// ReadLimit is how many bytes of a topic file a scan reads. It holds any
// realistic frontmatter plus a BodyWindow of 4-byte runes (4,800 bytes)
// with CRLF line ends, with room to spare, and it is one read system call
// into a per-worker buffer. A file whose frontmatter does not close within
// it is skipped (SkipTooLarge); a longer file with a normal frontmatter is
// a document with a truncated body.
const ReadLimit = 16 << 10

// fileKey is what a stat tells the catalog about a file's version. Equal
// keys mean "unchanged" (with the racy-timestamp exception documented on
// Catalog). ctime is 0 where the platform does not expose it.
type fileKey struct {
	size         int64
	mtime, ctime int64 // nanoseconds since the Unix epoch
	ino, dev     uint64
	mode         fs.FileMode // type bits only
	// links is the file's hard-link count where the platform reports it
	// (0 elsewhere). It is not part of the version (same): a file with
	// more than one link can be changed through a name the watch does not
	// see, so the watch does not vouch for it.
	links uint64
}

// same reports that two keys name the same version of a file.
func (k fileKey) same(o fileKey) bool {
	k.links = o.links
	return k == o
}

func (k fileKey) modified() time.Time { return time.Unix(0, k.mtime) }

// fileSystem is the scan's access to files: the real one makes the fewest
// system calls the platform allows; tests inject failures (permission
// denied as root, files vanishing at a chosen moment) through it.
type fileSystem interface {
	// stat returns the key of the file at, never following a symlink.
	// path is the document's path, for errors and for tests.
	stat(path string, at fileAt) (fileKey, error)
	// readPrefix opens the file at, never following a symlink and never
	// blocking, reads up to len(buf) bytes into buf and returns how many,
	// with the open file's key. It fails with errNotRegular for a
	// non-regular file.
	readPrefix(path string, at fileAt, buf []byte) (int, fileKey, error)
}

// fileAt names a file as the only way a scan opens one: relative to a
// directory the walk holds, by a name (or, below a scope root, a
// slash-separated path with no "..") that is resolved without following
// any symlink. A symlinked topic is named by its target's path below the
// root, which the walk resolved and checked, so whatever the link says at
// open time, the file read is inside the root.
type fileAt struct {
	dir  *dirHandle
	name string
}

// errNotRegular reports a FIFO, device or directory where a topic was
// expected.
var errNotRegular = errors.New("memory: not a regular file")

// skipForIO maps a file-system error to its skip reason.
func skipForIO(err error) SkipReason {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return SkipVanished
	case errors.Is(err, syscall.ELOOP):
		// With O_NOFOLLOW: the regular file we listed is now a symlink.
		return SkipVanished
	case errors.Is(err, fs.ErrPermission):
		return SkipPermission
	}
	return SkipUnreadable
}
