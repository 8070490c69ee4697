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
}

func (k fileKey) modified() time.Time { return time.Unix(0, k.mtime) }

// fileSystem is the scan's access to files: the real one makes the fewest
// system calls the platform allows; tests inject failures (permission
// denied as root, files vanishing at a chosen moment) through it.
type fileSystem interface {
	// stat returns the key of path (or of at, when its dirfd is not
	// negative), following a final symlink if follow.
	stat(path string, at fileAt, follow bool) (fileKey, error)
	// readPrefix opens path (refusing a final symlink unless follow), reads
	// up to len(buf) bytes into buf and returns how many, with the open
	// file's key. It fails with errNotRegular for a non-regular file. at,
	// when its dirfd is not negative, names the same file relative to an
	// open directory, which is cheaper to open.
	readPrefix(path string, at fileAt, buf []byte, follow bool) (int, fileKey, error)
}

// fileAt names a file by its parent directory's descriptor and its base
// name; dirfd < 0 means "use the path".
type fileAt struct {
	dirfd int
	name  string
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
