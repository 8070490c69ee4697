//go:build linux

package memory

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// watchMask is what a watched directory reports: every change to its
// entries (create, delete, rename in and out), to a child's content or
// metadata, and to the directory itself. Opens, reads and closes without
// writing are left out: the scan's own reads would otherwise report
// themselves.
const watchMask = syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_MOVED_FROM |
	syscall.IN_MOVED_TO | syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE |
	syscall.IN_ATTRIB | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF |
	syscall.IN_ONLYDIR

// watchAction is what one notification asks of the catalog.
type watchAction uint8

const (
	// watchIgnore: the event cannot change what a scan returns.
	watchIgnore watchAction = iota
	// watchRescan: the tree may have changed; the next query revalidates
	// by listing and stat, and arms a new watch.
	watchRescan
)

func (a watchAction) String() string {
	if a == watchIgnore {
		return "ignore"
	}
	return "rescan"
}

// classify maps one inotify event to the catalog's action. The rule is
// the walk's (walk.go): hidden names are not part of the tree, and the
// content of a regular file matters only when it is a topic (*.md other
// than MEMORY.md). Anything that changes a directory's entries may add or
// remove a directory, a link or a topic; anything that concerns the
// watched directory itself, a watch that went away or a lost event puts
// the whole watch in doubt. Both are a rescan.
func classify(mask uint32, name string) watchAction {
	switch {
	case mask&(syscall.IN_Q_OVERFLOW|syscall.IN_IGNORED|syscall.IN_UNMOUNT|
		syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF) != 0:
		return watchRescan
	case name == "":
		// The watched directory itself (its mode, say).
		return watchRescan
	case strings.HasPrefix(name, "."):
		return watchIgnore
	case mask&(syscall.IN_CREATE|syscall.IN_DELETE|syscall.IN_MOVED_FROM|syscall.IN_MOVED_TO) != 0:
		// An entry appeared or went: a topic, a directory, or a link
		// that may point at either.
		return watchRescan
	case mask&syscall.IN_ISDIR != 0:
		// A subdirectory's mode or owner: it may no longer be listable.
		return watchRescan
	case isTopic(name):
		return watchRescan
	}
	// The content or mode of a file that is not a topic (the index, a
	// text file): the walk never reads it.
	return watchIgnore
}

// inotifySys is the watch's access to the kernel; tests inject a full
// watch table (ENOSPC) or a lost event (IN_Q_OVERFLOW) through it.
type inotifySys interface {
	init() (int, error)
	addWatch(fd int, path string, mask uint32) (int, error)
	read(fd int, buf []byte) (int, error)
	close(fd int) error
	fstatfs(fd int, st *syscall.Statfs_t) error
	fstat(fd int, st *syscall.Stat_t) error
	stat(path string, st *syscall.Stat_t) error
}

type kernelInotify struct{}

func (kernelInotify) init() (int, error) {
	return syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
}

func (kernelInotify) addWatch(fd int, path string, mask uint32) (int, error) {
	return syscall.InotifyAddWatch(fd, path, mask)
}

func (kernelInotify) read(fd int, buf []byte) (int, error) { return syscall.Read(fd, buf) }
func (kernelInotify) close(fd int) error                   { return syscall.Close(fd) }
func (kernelInotify) fstatfs(fd int, st *syscall.Statfs_t) error {
	return syscall.Fstatfs(fd, st)
}
func (kernelInotify) fstat(fd int, st *syscall.Stat_t) error     { return syscall.Fstat(fd, st) }
func (kernelInotify) stat(path string, st *syscall.Stat_t) error { return syscall.Stat(path, st) }

// maxWatches bounds the directories one catalog watches. A tree with more
// is revalidated by stat, as without a watch; agents' trees have tens.
const maxWatches = 4096

// localFS lists the file systems whose notifications cover every change:
// changes made on another machine (NFS, SMB), by a FUSE daemon or below an
// overlay's layers are not reported to inotify, so those trees keep the
// stat revalidation. The magic numbers are 32-bit; compared as uint32,
// since Statfs_t.Type is an int32 on 386 and arm, where btrfs, f2fs and
// ramfs (high bit set) read negative.
var localFS = [...]uint32{
	0xEF53,     // ext2/3/4
	0x58465342, // xfs
	0x9123683E, // btrfs
	0x01021994, // tmpfs
	0xF2F52010, // f2fs
	0x2FC12FC1, // zfs
	0x858458F6, // ramfs
}

// isLocalFS reports whether t, a Statfs_t.Type of whatever integer type
// the platform gives it, is one of localFS.
func isLocalFS[T ~int32 | ~uint32 | ~int64](t T) bool {
	return slices.Contains(localFS[:], uint32(t))
}

// watcher is a catalog's inotify watch. It owns no goroutine: the queue is
// drained by the query that asks whether anything changed, with one
// non-blocking read. The kernel queues an event before the system call
// that caused it returns, so a change that happened before a query began
// is in the queue when the query drains it.
//
// Invariant: trusted implies fd is open, every directory the last full
// walk listed was watched before it was listed, and that walk met no
// doubt (see doubt).
type watcher struct {
	sys inotifySys
	fd  int // -1: none
	// held mirrors fd >= 0 for Catalog.Watching, which may ask while a
	// scan owns the rest.
	held atomic.Bool
	// refused: the kernel refused the last arm an inotify instance (the
	// per-user limit, fs.inotify.max_user_instances, is the usual cause),
	// so the catalog revalidates by stat until a later arm gets one. For
	// Catalog.WatchRefused, which may ask while a scan owns the rest.
	refused atomic.Bool
	// watches counts the directories of the current watch.
	watches int
	// trusted: no event since the last full walk can have been missed.
	trusted bool
	// doubted: something during the current walk puts it in doubt.
	doubted bool
	// roots are the scope roots as the last walk found them.
	roots []rootID
	buf   []byte
	// statfs is addDir's scratch: the walk adds directories from one
	// goroutine.
	statfs syscall.Statfs_t
	// Counters for tests and Stats.
	arms, overflows int
}

// rootID is one scope root as a walk found it: its identity, or that it
// was missing.
type rootID struct {
	given    string // as Roots names it
	abs      string // made absolute when the walk ran
	missing  bool
	dev, ino uint64
}

func newWatcher(sys inotifySys) *watcher {
	if sys == nil {
		sys = kernelInotify{}
	}
	return &watcher{sys: sys, fd: -1}
}

// arm starts a new watch for a full walk: the previous one's queue and
// watches are dropped (a walk lists everything again after watching it).
func (w *watcher) arm() {
	w.release()
	w.trusted, w.doubted = false, false
	w.roots = w.roots[:0]
	w.watches = 0
	w.arms++
	fd, err := w.sys.init()
	if err != nil {
		// EMFILE: the per-user instance limit; any other failure alike.
		w.doubted = true
		w.refused.Store(true)
		return
	}
	w.fd = fd
	w.held.Store(true)
	w.refused.Store(false)
}

// doubt marks the current walk as not covered by the watch.
func (w *watcher) doubt() { w.doubted = true }

// addDir watches the walk's open directory d before it is listed, through
// its descriptor (/proc/self/fd), so the directory watched is the one
// listed whatever happens to its path meanwhile.
func (w *watcher) addDir(d *dirHandle) {
	if w.doubted || w.fd < 0 {
		return
	}
	if w.watches >= maxWatches {
		w.doubted = true
		return
	}
	// w.statfs, not a local: passed through the sys interface, a local
	// escaped to the heap, one 120-byte object per directory walked.
	fs := &w.statfs
	if err := w.sys.fstatfs(d.fd, fs); err != nil || !isLocalFS(fs.Type) {
		w.doubted = true
		return
	}
	if _, err := w.sys.addWatch(w.fd, "/proc/self/fd/"+strconv.Itoa(d.fd), watchMask); err != nil {
		// ENOSPC: the per-user watch limit; ENOENT: no /proc.
		w.doubted = true
		return
	}
	w.watches++
}

// root records a scope root as the walk found it: d is its open handle,
// or nil when it was missing (err). Any other state than "open" or
// "missing" is a doubt.
func (w *watcher) root(given, abs string, d *dirHandle, err error) {
	id := rootID{given: given, abs: abs}
	switch {
	case d != nil:
		var st syscall.Stat_t
		if e := w.sys.fstat(d.fd, &st); e != nil {
			w.doubted = true
			return
		}
		id.dev, id.ino = uint64(st.Dev), st.Ino
	case errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR):
		id.missing = true
	default:
		w.doubted = true
		return
	}
	w.roots = append(w.roots, id)
}

// settle ends a full walk: the watch is trusted when nothing doubted it
// and the walk asks for no exception (ok).
func (w *watcher) settle(ok bool) {
	w.trusted = ok && !w.doubted && w.fd >= 0
	if !w.trusted {
		w.release()
	}
}

// unchanged reports that the tree is as the last full walk found it: the
// watch is trusted, the queue holds no event that matters, and every
// scope root still resolves to the directory watched (a parent renamed or
// a root symlink retargeted reports no event in the tree). It drains the
// queue; a false answer leaves the watch untrusted until the next arm.
func (w *watcher) unchanged() bool {
	if !w.trusted {
		return false
	}
	if !w.drain() {
		w.release()
		return false
	}
	for _, r := range w.roots {
		var st syscall.Stat_t
		abs, err := filepath.Abs(r.given)
		if err != nil || abs != r.abs {
			// A relative root and a new working directory.
			w.release()
			return false
		}
		err = w.sys.stat(r.abs, &st)
		var same bool
		if r.missing {
			same = errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR)
		} else {
			same = err == nil && uint64(st.Dev) == r.dev && st.Ino == r.ino
		}
		if !same {
			w.release()
			return false
		}
	}
	return true
}

// inotifyEventSize is sizeof(struct inotify_event) without its name (Go
// pads syscall.InotifyEvent's empty Name, so unsafe.Sizeof says 20).
const inotifyEventSize = syscall.SizeofInotifyEvent

// watchReadBuf is the size of drain's read buffer; at least one event
// with the longest name (inotifyEventSize + NAME_MAX + 1).
const watchReadBuf = 4 << 10

// drain reads the queue until the kernel has nothing more (EAGAIN) and
// reports whether every event read was ignorable. It stops at the first
// event that is not: the watch is then dropped with its queue.
func (w *watcher) drain() bool {
	if w.buf == nil {
		// A page: room for 15 events of the longest name (the kernel
		// fills it with whole events and the loop reads until EAGAIN).
		// Usually the queue is empty, and the buffer lives as long as the
		// catalog: 64 KiB was the largest thing an engine allocated beside
		// its documents' text (decision 0616).
		w.buf = make([]byte, watchReadBuf)
	}
	for {
		n, err := w.sys.read(w.fd, w.buf)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return true
		case err != nil || n <= 0:
			return false
		}
		for off := 0; off+inotifyEventSize <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			end := off + inotifyEventSize + int(ev.Len)
			if end > n {
				return false
			}
			name := w.buf[off+inotifyEventSize : end]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if ev.Mask&syscall.IN_Q_OVERFLOW != 0 {
				w.overflows++
			}
			if classify(ev.Mask, string(name)) != watchIgnore {
				return false
			}
			off = end
		}
	}
}

// vouches reports that the last full walk was wholly watched and nothing
// since has put it in doubt (the queue may still hold events).
func (w *watcher) vouches() bool { return w.trusted }

// holds reports that the watch holds a descriptor now.
func (w *watcher) holds() bool { return w.held.Load() }

// wasRefused reports that the kernel refused the last arm an instance.
func (w *watcher) wasRefused() bool { return w.refused.Load() }

// release closes the watch's descriptor, which drops its watches and
// queue.
func (w *watcher) release() {
	if w.fd >= 0 {
		w.sys.close(w.fd)
		w.fd = -1
		w.held.Store(false)
	}
	w.trusted = false
}
