package memory

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// indexFile is the per-scope index agents keep next to the topics; it is
// never a recall candidate.
const indexFile = "MEMORY.md"

// job is one topic file found by the walk, handed to a worker.
type job struct {
	path  string // absolute: the scope root as given (made absolute) + rel
	at    fileAt // where it is opened: a held directory and a name below it
	rel   string // forward slashes, relative to the scope root
	scope Scope
	old   *entry // the catalog's entry for path, or nil
	slot  int    // when old is nil: the index of its Document and entry
	// pre is the file's stat taken before the worker visits it, or nil:
	// by the walk while it held the file's directory, when the directory
	// is not kept for the workers and the file has an entry to check (one
	// fstatat instead of the workers' open below the root, fstat and
	// close), or by the walk and statAll while the snapshot loads.
	pre *statOutcome
}

// dirent is one entry of a directory listing: its name and its type as
// the listing reports it (fs.ModeDir, fs.ModeSymlink, 0 for a regular
// file...), without a stat.
type dirent struct {
	name string
	typ  fs.FileMode
}

// walker lists the scope roots. It runs on one goroutine: listing is a
// small share of a scan (getdents returns the type of every entry, so no
// stat is needed to walk), and one goroutine keeps the visited set simple.
type walker struct {
	fsys    fileSystem
	watch   *watcher // nil: this walk is not watched
	cache   scopeCache
	keybuf  []byte // builds a path for a cache lookup without allocating
	dirbuf  []byte // the raw entries of the directory being listed
	jobs    []job
	skipped SkipCounts
	dirs    int
	links   []linkDir
	// open holds the directories kept open so workers can open files
	// relative to them (openat: one name to resolve). At most maxOpenDirs
	// of them cost a descriptor, plus the scope roots; closed by close.
	open   []*dirHandle
	fdDirs int
	// names holds the paths of the directory being listed, one
	// allocation for all of its files, on a walk whose cache is empty
	// (the first, or one while the snapshot loads); nil otherwise, and
	// then each new file's path is its own allocation.
	names []byte
	// statNew, while not nil and true: the walk stats a file it knows
	// nothing of too (see pre), because its cache is empty while the
	// snapshot loads and the scan matches the jobs with the snapshot's
	// entries after the walk. Else a file without an entry is read, and
	// its stat would be wasted. The loader clears it when it finds
	// nothing to seed (snapLoad.seeds).
	statNew *atomic.Bool
	// files, when not nil and above zero, is how many files the snapshot
	// loading beside the walk holds (snapLoad.files): when the jobs must
	// grow, appendJob makes room for that many at once instead of
	// doubling on the way (decision 0838). Only a capacity: the walk
	// lists what it lists, whatever the count says.
	files *atomic.Int64
}

// maxOpenDirs bounds the directory descriptors a scan keeps open for its
// workers; files of further directories are opened below their scope root
// by path, still without following any symlink (openBeneath).
const maxOpenDirs = 64

// maxDepth bounds how deep the walk descends: each level holds its
// directory open while its subdirectories are listed. A deeper directory
// is a counted SkipUnreadable; no memory tree comes near it.
const maxDepth = 128

// close releases the directories kept open for the workers.
func (w *walker) close() {
	for _, d := range w.open {
		d.close()
	}
	w.open = nil
}

// walkRoot lists one scope root. The root may itself be a symlink (as /tmp
// is on macOS): IDs keep the path as given, made absolute, while the
// containment checks use the resolved path, and the root is opened by it.
// From there on nothing is opened by absolute path: every directory
// relative to its parent's handle, every file relative to a held directory
// (see dirHandle), so no change to the tree during the walk can make it
// block or leave the root.
func (w *walker) walkRoot(root string, scope Scope) error {
	if root == "" {
		return nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		w.skipRoot(err)
		w.watchRoot(root, abs, nil, err)
		return nil
	}
	rd, err := openRootDir(real)
	if err != nil {
		w.skipRoot(err)
		w.watchRoot(root, abs, nil, err)
		return nil
	}
	w.watchRoot(root, abs, rd, nil)
	w.open = append(w.open, rd) // files may be opened below it until the scan ends
	r := &rootWalk{dir: rd, path: abs, real: real, scope: scope, visited: map[string]bool{real: true}}
	w.links = w.links[:0]
	w.walkDir(r, rd, abs, "", real, 0)
	// Directory symlinks are entered only after every real directory has
	// been listed, in path order, so a directory reachable both ways is
	// read once, under its real path, whatever order the kernel lists in.
	for len(w.links) > 0 {
		slices.SortFunc(w.links, func(a, b linkDir) int { return strings.Compare(a.rel, b.rel) })
		l := w.links[0]
		w.links = w.links[1:]
		if r.visited[l.target] {
			w.skipped[SkipSymlinkLoop]++
			continue
		}
		r.visited[l.target] = true
		// The target was resolved and checked to be inside the root; it is
		// opened below the root's handle without following any symlink, so
		// a link retargeted since is never followed out.
		d, err := rd.openBeneathDir(l.below, l.path)
		if err != nil {
			w.skipDir(err, false)
			continue
		}
		w.walkDir(r, d, l.path, l.rel, l.target, strings.Count(l.below, "/")+1)
	}
	return nil
}

// rootWalk is the state of one scope root's walk.
type rootWalk struct {
	dir     *dirHandle // the root, held for the whole scan
	path    string     // as given, made absolute: the prefix of IDs
	real    string     // resolved
	scope   Scope
	visited map[string]bool // resolved directories entered
}

// linkDir is a symlinked directory waiting to be entered: below is its
// resolved target relative to the resolved root.
type linkDir struct{ path, rel, target, below string }

// settleWatch ends the walk's watch, if any: trusted when ok and nothing
// during the walk doubted it.
func (w *walker) settleWatch(ok bool) {
	if w.watch != nil {
		w.watch.settle(ok)
	}
}

// watchRoot tells the watch, if any, how the walk found a scope root.
func (w *walker) watchRoot(given, abs string, d *dirHandle, err error) {
	if w.watch != nil {
		w.watch.root(given, abs, d, err)
	}
}

func (w *walker) skipRoot(err error) {
	if err != nil && errors.Is(err, fs.ErrPermission) {
		w.skipped[SkipPermission]++
		return
	}
	w.skipped[SkipRootMissing]++
}

// walkDir lists the open directory d (path as IDs spell it, rel below the
// root, realDir resolved) and recurses. It closes d unless workers need
// it. Hidden entries (.git, editor files) are not part of the tree.
func (w *walker) walkDir(r *rootWalk, d *dirHandle, path, rel, realDir string, depth int) {
	if w.watch != nil {
		// Watched before it is listed: a change after the listing is
		// reported, one before it is in the listing.
		w.watch.addDir(d)
	}
	ents, buf, err := d.list(w.dirbuf)
	w.dirbuf = buf
	if err != nil && w.watch != nil {
		w.watch.doubt()
	}
	if err != nil && len(ents) == 0 {
		d.close()
		w.skipDir(err, rel == "")
		return
	}
	w.dirs++
	// Files are opened relative to d if it is kept (the root always is),
	// else below the root.
	kept := d == r.dir
	topics := 0
	if !kept {
		topics = countTopics(ents)
	}
	if !kept && topics > 0 && (!d.holdsFD() || w.fdDirs < maxOpenDirs) {
		kept = true
		w.open = append(w.open, d)
		if d.holdsFD() {
			w.fdDirs++
		}
	}
	// Where d lies below the resolved root, for files opened from the
	// root: computed once per directory, and for a directory not entered
	// through a link it equals rel, so each file reuses its job's rel.
	var dirBelow string
	var pre []statOutcome
	if !kept {
		dirBelow = belowRoot(r.real, realDir)
	}
	if w.cache.len() == 0 {
		// Every topic file here is new: its path is path + "/" + name.
		// A subdirectory listed in the loop below has its own, and this
		// directory's is back when it returns.
		outer := w.names
		w.names = make([]byte, 0, topicPathBytes(ents, len(path)+1))
		defer func() { w.names = outer }()
	}
	for _, e := range ents {
		name := e.name
		if strings.HasPrefix(name, ".") {
			continue
		}
		t := e.typ
		if t.IsRegular() {
			if isTopic(name) {
				j := w.addFile(path, rel, name, r.scope)
				switch {
				case kept:
					j.at = fileAt{d, name}
				case dirBelow == rel:
					j.at = fileAt{r.dir, j.rel}
				default:
					j.at = fileAt{r.dir, dirBelow + "/" + name}
				}
				if !kept && d.holdsFD() && (j.old != nil || w.statNew != nil && w.statNew.Load()) {
					// The directory closes below; a stat through it now
					// is one system call where a worker needs three.
					if len(pre) == 0 {
						pre = make([]statOutcome, topics) // the directory's files, one allocation
					}
					st := &pre[0]
					pre = pre[1:]
					st.key, st.err = w.fsys.stat(j.path, fileAt{d, name})
					j.pre = st
				}
			}
			continue
		}
		epath := path + string(filepath.Separator) + name
		erel := name
		if rel != "" {
			erel = rel + "/" + name
		}
		switch {
		case t.IsDir():
			if depth+1 > maxDepth {
				w.skipped[SkipUnreadable]++
				continue
			}
			sub := joinPath(realDir, name)
			r.visited[sub] = true
			sd, err := d.openSubdir(name, epath)
			if err != nil {
				w.skipDir(err, false)
				continue
			}
			w.walkDir(r, sd, epath, erel, sub, depth+1)
		case t&fs.ModeSymlink != 0:
			w.symlink(r, epath, erel, name, realDir)
		default:
			if isTopic(name) {
				w.skipped[SkipUnreadable]++
			}
		}
	}
	if !kept {
		d.close()
	}
}

// skipDir counts a directory that could not be opened or listed. One that
// was replaced since it was listed (gone, now a FIFO or a symlink: ENOENT,
// ENOTDIR, ELOOP) has vanished.
func (w *walker) skipDir(err error, isRoot bool) {
	switch {
	case errors.Is(err, fs.ErrPermission):
		w.skipped[SkipPermission]++
	case isRoot:
		w.skipped[SkipRootMissing]++
	default:
		w.skipped[skipForIO(err)]++
	}
}

// symlink follows a link only to a target inside the scope root. A link to
// a topic the walk reaches anyway, or to a directory it has already entered
// (an ancestor: a loop; anything else: an alias), is skipped as
// SkipSymlinkLoop, so every file is read once; so is a link to an index
// (MEMORY.md), which is never a topic under any name. Other links to files
// are read from their target below the root (the ID is the link's path);
// links to directories are queued for walkRoot. The check here decides
// what to read; the open itself (openBeneath) is what keeps it inside.
func (w *walker) symlink(r *rootWalk, path, rel, name, realDir string) {
	if w.watch != nil {
		// What a link reaches can change without an event in any watched
		// directory (its target's path may cross unwatched ones): a tree
		// with links is revalidated by stat.
		w.watch.doubt()
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		switch {
		case isLoopErr(err):
			w.skipped[SkipSymlinkLoop]++
		case isTopic(name):
			w.skipped[skipForDangling(err)]++
		}
		return
	}
	fi, err := os.Stat(target)
	if err != nil {
		if isTopic(name) {
			w.skipped[skipForIO(err)]++
		}
		return
	}
	if !fi.IsDir() && !isTopic(name) {
		return
	}
	if !within(r.real, target) {
		w.skipped[SkipSymlinkOutside]++
		return
	}
	below := belowRoot(r.real, target)
	switch {
	case fi.IsDir():
		if within(target, realDir) {
			w.skipped[SkipSymlinkLoop]++
			return
		}
		w.links = append(w.links, linkDir{path: path, rel: rel, target: target, below: below})
	case fi.Mode().IsRegular():
		base := filepath.Base(target)
		if base == indexFile {
			// Another name for the index: not a topic, not counted, like
			// the index itself.
			return
		}
		if isTopic(base) && !hiddenBelow(r.real, target) {
			// The walk reads the target under its own path: an alias.
			w.skipped[SkipSymlinkLoop]++
			return
		}
		w.add(job{path: path, rel: rel, scope: r.scope, at: fileAt{r.dir, below}})
	default:
		w.skipped[SkipUnreadable]++
	}
}

// addFile queues a regular topic file and returns its job for the caller
// to say where it is opened. A file the catalog knows reuses the path
// strings of its entry, so an unchanged tree costs no allocation here.
func (w *walker) addFile(dir, rel, name string, scope Scope) *job {
	w.keybuf = append(append(append(w.keybuf[:0], dir...), filepath.Separator), name...)
	if e := w.cache[scope][string(w.keybuf)]; e != nil {
		return w.appendJob(job{path: e.path, rel: e.rel, scope: scope, old: e})
	}
	path := w.keepPath(w.keybuf)
	return w.appendJob(job{path: path, rel: relOf(path, rel, name), scope: scope})
}

// keepPath returns b as a string that does not share b's memory: a piece
// of w.names while that has room (decision 0615), else a copy of its own.
// w.names is only ever appended to within its capacity, so the bytes a
// returned string holds are never written again.
func (w *walker) keepPath(b []byte) string {
	if len(b) == 0 || len(b) > cap(w.names)-len(w.names) {
		return string(b)
	}
	start := len(w.names)
	w.names = append(w.names, b...)
	return unsafe.String(&w.names[start], len(b))
}

// appendJob appends j to the walk's jobs and returns it. The array grows
// by doubling and is mapped in one call when it does (prefault): append
// grows a large slice by about a quarter at a time, so the arrays a walk
// of 10,000 topics left behind held about five times the final one, each
// page of each taken with its own fault (about 900 of a fresh process's
// 3,200 at 10,000 topics; docs/decisions/0830-snapshot-in-a-fresh-process.md).
func (w *walker) appendJob(j job) *job {
	if len(w.jobs) == cap(w.jobs) {
		size := max(2*cap(w.jobs), 64)
		if w.files != nil {
			if n := int(w.files.Load()); n > 0 && n >= len(w.jobs) {
				// The snapshot's files and a few new ones, in one
				// array: a tree that has not changed much since the
				// snapshot needs no other (decision 0838).
				size = max(n+n/16+16, len(w.jobs)+1)
			}
		}
		grown := make([]job, len(w.jobs), size)
		prefaultSlice(grown[:cap(grown)])
		copy(grown, w.jobs)
		w.jobs = grown
	}
	w.jobs = append(w.jobs, j)
	return &w.jobs[len(w.jobs)-1]
}

// relOf is the relative path of the file name in the directory rel, given
// the file's path. Where the separator is "/", path ends in exactly that
// (a walked directory's path is its root's plus "/" plus its rel), so rel
// is cut from path instead of being a second allocation per file.
func relOf(path, rel, name string) string {
	n := len(name)
	if rel != "" {
		n += len(rel) + 1
	}
	if filepath.Separator == '/' && n <= len(path) {
		cut := path[len(path)-n:]
		if strings.HasSuffix(cut, name) && (rel == "" || strings.HasPrefix(cut, rel) && cut[len(rel)] == '/') {
			return cut
		}
	}
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

func (w *walker) add(j job) {
	j.old = w.cache[j.scope][j.path]
	w.appendJob(j)
}

// hiddenBelow reports that path, inside root, lies under a hidden
// directory, which the walk does not enter.
func hiddenBelow(root, path string) bool {
	rel, err := filepath.Rel(root, filepath.Dir(path))
	if err != nil || rel == "." {
		return false
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// countTopics counts a listing's regular topic files, the ones walkDir
// queues: hidden names (".x.md") are not part of the tree. A directory
// with none is not kept open for the workers.
func countTopics(ents []dirent) int {
	n := 0
	for _, e := range ents {
		if !strings.HasPrefix(e.name, ".") && e.typ.IsRegular() && isTopic(e.name) {
			n++
		}
	}
	return n
}

// topicPathBytes is the length of the paths of a listing's topic files
// (the ones countTopics counts), each its directory's prefix bytes (its
// path and a separator) and its name.
func topicPathBytes(ents []dirent, prefix int) int {
	n := 0
	for _, e := range ents {
		if !strings.HasPrefix(e.name, ".") && e.typ.IsRegular() && isTopic(e.name) {
			n += prefix + len(e.name)
		}
	}
	return n
}

// isTopic reports a topic file name: *.md except the index.
func isTopic(name string) bool {
	return strings.HasSuffix(name, ".md") && name != indexFile
}

// within reports that path is root or below it (both resolved, cleaned).
func within(root, path string) bool {
	return path == root || strings.HasPrefix(path, rootPrefix(root))
}

// rootPrefix is root ending in exactly one separator: what a path below
// it starts with. A cleaned root ends in one only when it is the file
// system's root ("/", or a volume's "C:\"), which must not get a second.
func rootPrefix(root string) string {
	sep := string(filepath.Separator)
	return strings.TrimSuffix(root, sep) + sep
}

// joinPath appends name to dir, a resolved, cleaned directory, as the
// kernel spells the result (so "/" and "a" give "/a", not "//a"), which is
// how filepath.EvalSymlinks reports a link's target.
func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// belowRoot returns path, which within(root, path) holds for, relative to
// root with forward slashes: "" for root itself. It is the one place the
// walk cuts a resolved root off a resolved path.
func belowRoot(root, path string) string {
	if path == root {
		return ""
	}
	return filepath.ToSlash(strings.TrimPrefix(path, rootPrefix(root)))
}

// isLoopErr recognises a symlink loop: the kernel's ELOOP, or
// filepath.EvalSymlinks' own "too many links" after 255 hops.
func isLoopErr(err error) bool {
	return errors.Is(err, syscall.ELOOP) || strings.Contains(err.Error(), "too many links")
}

func skipForDangling(err error) SkipReason {
	if errors.Is(err, fs.ErrPermission) {
		return SkipPermission
	}
	return SkipUnreadable
}
