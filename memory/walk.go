package memory

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// indexFile is the per-scope index agents keep next to the topics; it is
// never a recall candidate.
const indexFile = "MEMORY.md"

// job is one topic file found by the walk, handed to a worker.
type job struct {
	path   string // absolute: the scope root as given (made absolute) + rel
	at     fileAt // the open parent directory and the file's name in it
	rel    string // forward slashes, relative to the scope root
	scope  Scope
	follow bool   // the entry is a symlink checked to stay inside the root
	old    *entry // the catalog's entry for path, or nil
	slot   int    // when old is nil: the index of its Document and entry
}

// walker lists the scope roots. It runs on one goroutine: listing is a
// small share of a scan (getdents returns the type of every entry, so no
// stat is needed to walk), and one goroutine keeps the visited set simple.
type walker struct {
	fsys    fileSystem
	cache   scopeCache
	keybuf  []byte // builds a path for a cache lookup without allocating
	jobs    []job
	skipped SkipCounts
	dirs    int
	links   []linkDir
	// open holds the listed directories kept open so workers can open
	// files relative to them (openat: one path component to resolve, not
	// the whole absolute path). Bounded by maxOpenDirs; closed by close.
	open []*os.File
}

// maxOpenDirs bounds the directory descriptors a scan keeps open; a tree
// with more directories reads the rest by absolute path.
const maxOpenDirs = 64

// close releases the directories kept open for the workers.
func (w *walker) close() {
	for _, f := range w.open {
		f.Close()
	}
	w.open = nil
}

// walkRoot lists one scope root. The root may itself be a symlink (as /tmp
// is on macOS): IDs keep the path as given, made absolute, while the
// containment checks use the resolved path.
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
		return nil
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		w.skipRoot(err)
		return nil
	}
	visited := map[string]bool{real: true}
	w.links = w.links[:0]
	w.walkDir(abs, "", real, real, scope, visited)
	// Directory symlinks are entered only after every real directory has
	// been listed, in path order, so a directory reachable both ways is
	// read once, under its real path, whatever order the kernel lists in.
	for len(w.links) > 0 {
		slices.SortFunc(w.links, func(a, b linkDir) int { return strings.Compare(a.rel, b.rel) })
		l := w.links[0]
		w.links = w.links[1:]
		if visited[l.target] {
			w.skipped[SkipSymlinkLoop]++
			continue
		}
		visited[l.target] = true
		w.walkDir(l.path, l.rel, l.target, real, scope, visited)
	}
	return nil
}

// linkDir is a symlinked directory waiting to be entered.
type linkDir struct{ path, rel, target string }

func (w *walker) skipRoot(err error) {
	if err != nil && errors.Is(err, fs.ErrPermission) {
		w.skipped[SkipPermission]++
		return
	}
	w.skipped[SkipRootMissing]++
}

// walkDir lists dir (whose resolved path is realDir) and recurses.
// Hidden entries (.git, editor files) are not part of the tree.
func (w *walker) walkDir(dir, rel, realDir, realRoot string, scope Scope, visited map[string]bool) {
	f, err := os.Open(dir)
	if err != nil {
		w.skipDir(err, rel == "")
		return
	}
	ents, err := f.ReadDir(-1)
	if err != nil && len(ents) == 0 {
		f.Close()
		w.skipDir(err, rel == "")
		return
	}
	w.dirs++
	dirfd := -1
	if len(w.open) < maxOpenDirs && hasTopic(ents) {
		w.open = append(w.open, f)
		dirfd = dirFD(f)
	} else {
		f.Close()
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		t := e.Type()
		if t.IsRegular() {
			if isTopic(name) {
				w.addFile(dir, rel, name, scope, dirfd)
			}
			continue
		}
		path := dir + string(filepath.Separator) + name
		erel := name
		if rel != "" {
			erel = rel + "/" + name
		}
		switch {
		case t.IsDir():
			sub := realDir + string(filepath.Separator) + name
			visited[sub] = true
			w.walkDir(path, erel, sub, realRoot, scope, visited)
		case t&fs.ModeSymlink != 0:
			w.symlink(path, erel, name, realDir, realRoot, scope, visited)
		default:
			if isTopic(name) {
				w.skipped[SkipUnreadable]++
			}
		}
	}
}

func (w *walker) skipDir(err error, isRoot bool) {
	switch {
	case errors.Is(err, fs.ErrPermission):
		w.skipped[SkipPermission]++
	case isRoot:
		w.skipped[SkipRootMissing]++
	case errors.Is(err, fs.ErrNotExist):
		w.skipped[SkipVanished]++
	default:
		w.skipped[SkipUnreadable]++
	}
}

// symlink follows a link only to a target inside the scope root. A link to
// a topic the walk reaches anyway, or to a directory it has already entered
// (an ancestor: a loop; anything else: an alias), is skipped as
// SkipSymlinkLoop, so every file is read once. Other links to files are
// read through the link (the ID is the link's path); links to directories
// are queued for walkRoot.
func (w *walker) symlink(path, rel, name, realDir, realRoot string, scope Scope, visited map[string]bool) {
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
	if !within(realRoot, target) {
		w.skipped[SkipSymlinkOutside]++
		return
	}
	switch {
	case fi.IsDir():
		if within(target, realDir) {
			w.skipped[SkipSymlinkLoop]++
			return
		}
		w.links = append(w.links, linkDir{path: path, rel: rel, target: target})
	case fi.Mode().IsRegular():
		if isTopic(filepath.Base(target)) && !hiddenBelow(realRoot, target) {
			// The walk reads the target under its own path: an alias.
			w.skipped[SkipSymlinkLoop]++
			return
		}
		w.add(job{path: path, rel: rel, scope: scope, follow: true, at: fileAt{-1, ""}})
	default:
		w.skipped[SkipUnreadable]++
	}
}

// addFile queues a regular topic file. A file the catalog knows reuses the
// path strings of its entry, so an unchanged tree costs no allocation here.
func (w *walker) addFile(dir, rel, name string, scope Scope, dirfd int) {
	w.keybuf = append(append(append(w.keybuf[:0], dir...), filepath.Separator), name...)
	at := fileAt{dirfd, name}
	if e := w.cache[scope][string(w.keybuf)]; e != nil {
		w.jobs = append(w.jobs, job{path: e.path, rel: e.rel, scope: scope, at: at, old: e})
		return
	}
	erel := name
	if rel != "" {
		erel = rel + "/" + name
	}
	w.jobs = append(w.jobs, job{path: string(w.keybuf), rel: erel, scope: scope, at: at})
}

func (w *walker) add(j job) {
	j.old = w.cache[j.scope][j.path]
	w.jobs = append(w.jobs, j)
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

// hasTopic reports that a listing holds a regular topic file, the only
// reason to keep its directory open.
func hasTopic(ents []os.DirEntry) bool {
	for _, e := range ents {
		if e.Type().IsRegular() && isTopic(e.Name()) {
			return true
		}
	}
	return false
}

// isTopic reports a topic file name: *.md except the index.
func isTopic(name string) bool {
	return strings.HasSuffix(name, ".md") && name != indexFile
}

// within reports that path is root or below it (both resolved, cleaned).
func within(root, path string) bool {
	if path == root {
		return true
	}
	sep := string(filepath.Separator)
	return strings.HasPrefix(path, strings.TrimSuffix(root, sep)+sep)
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
