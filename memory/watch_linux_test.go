//go:build linux

package memory

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/internal/testenv"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name  string
		mask  uint32
		entry string
		want  watchAction
	}{
		{"queue overflow", syscall.IN_Q_OVERFLOW, "", watchRescan},
		{"watch removed", syscall.IN_IGNORED, "", watchRescan},
		{"file system unmounted", syscall.IN_UNMOUNT, "", watchRescan},
		{"watched directory deleted", syscall.IN_DELETE_SELF, "", watchRescan},
		{"watched directory moved", syscall.IN_MOVE_SELF, "", watchRescan},
		{"watched directory's mode", syscall.IN_ATTRIB | syscall.IN_ISDIR, "", watchRescan},
		{"topic written", syscall.IN_MODIFY, "a.md", watchRescan},
		{"topic closed after writing", syscall.IN_CLOSE_WRITE, "a.md", watchRescan},
		{"topic chmod", syscall.IN_ATTRIB, "a.md", watchRescan},
		{"topic created", syscall.IN_CREATE, "a.md", watchRescan},
		{"topic deleted", syscall.IN_DELETE, "a.md", watchRescan},
		{"topic renamed away", syscall.IN_MOVED_FROM, "a.md", watchRescan},
		{"topic renamed here", syscall.IN_MOVED_TO, "a.md", watchRescan},
		{"directory created", syscall.IN_CREATE | syscall.IN_ISDIR, "sub", watchRescan},
		{"directory deleted", syscall.IN_DELETE | syscall.IN_ISDIR, "sub", watchRescan},
		{"directory renamed here", syscall.IN_MOVED_TO | syscall.IN_ISDIR, "sub", watchRescan},
		{"subdirectory chmod", syscall.IN_ATTRIB | syscall.IN_ISDIR, "sub", watchRescan},
		{"non-topic created (may be a link to a directory)", syscall.IN_CREATE, "notes", watchRescan},
		{"non-topic deleted", syscall.IN_DELETE, "notes.txt", watchRescan},
		{"index created", syscall.IN_CREATE, "MEMORY.md", watchRescan},
		{"index written", syscall.IN_MODIFY, "MEMORY.md", watchIgnore},
		{"index chmod", syscall.IN_ATTRIB, "MEMORY.md", watchIgnore},
		{"text file written", syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE, "notes.txt", watchIgnore},
		{"hidden file written", syscall.IN_MODIFY, ".a.md.swp", watchIgnore},
		{"hidden file created", syscall.IN_CREATE, ".a.md.swp", watchIgnore},
		{"hidden directory created", syscall.IN_CREATE | syscall.IN_ISDIR, ".git", watchIgnore},
		{"hidden name renamed to a topic", syscall.IN_MOVED_FROM, ".tmp123", watchIgnore},
		{"overflow wins over a hidden name", syscall.IN_Q_OVERFLOW, ".x", watchRescan},
	}
	var got, want []string
	for _, tt := range tests {
		got = append(got, tt.name+": "+classify(tt.mask, tt.entry).String())
		want = append(want, tt.name+": "+tt.want.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("classify (-want +got):\n%s", diff)
	}
}

// fakeInotify is the kernel with injected failures.
type fakeInotify struct {
	kernelInotify
	mu       sync.Mutex
	initErr  error
	addErr   error
	fsType   int64 // nonzero: what fstatfs reports
	fstatErr error // what fstat of an open directory returns
	overflow bool  // the next read returns a lost-event marker
}

func (f *fakeInotify) init() (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.initErr != nil {
		return -1, f.initErr
	}
	return f.kernelInotify.init()
}

func (f *fakeInotify) addWatch(fd int, path string, mask uint32) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.addErr != nil {
		return -1, f.addErr
	}
	return f.kernelInotify.addWatch(fd, path, mask)
}

func (f *fakeInotify) fstatfs(fd int, st *syscall.Statfs_t) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	err := f.kernelInotify.fstatfs(fd, st)
	if f.fsType != 0 {
		setFSType(&st.Type, f.fsType)
	}
	return err
}

// setFSType stores t in a Statfs_t's Type, whose integer type differs
// between architectures (int64 on amd64, int32 on 386 and arm, uint32 on
// s390x), so the fake builds on all of them.
func setFSType[T ~int32 | ~uint32 | ~int64](p *T, t int64) { *p = T(t) }

func (f *fakeInotify) fstat(fd int, st *syscall.Stat_t) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fstatErr != nil {
		return f.fstatErr
	}
	return f.kernelInotify.fstat(fd, st)
}

func (f *fakeInotify) read(fd int, buf []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.overflow {
		f.overflow = false
		// struct inotify_event{wd=-1, mask=IN_Q_OVERFLOW, cookie=0, len=0}
		binary.NativeEndian.PutUint32(buf[0:], 0xFFFFFFFF)
		binary.NativeEndian.PutUint32(buf[4:], syscall.IN_Q_OVERFLOW)
		binary.NativeEndian.PutUint32(buf[8:], 0)
		binary.NativeEndian.PutUint32(buf[12:], 0)
		return inotifyEventSize, nil
	}
	return f.kernelInotify.read(fd, buf)
}

func writeTopic(t testing.TB, path, title, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(topic("user", title, body)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scanWatched scans and reports whether the watch answered, checking the
// result against a fresh scan either way.
func scanWatched(t *testing.T, c *Catalog) (Result, bool) {
	t.Helper()
	got, err := c.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := Scan(context.Background(), c.Roots())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snap(fresh), snap(got)); diff != "" {
		t.Fatalf("catalog differs from a fresh scan (-fresh +catalog):\n%s", diff)
	}
	return got, got.Stats.Watched
}

func TestWatchAnswersUnchangedTree(t *testing.T) {
	proj, user := t.TempDir(), filepath.Join(t.TempDir(), "missing")
	writeTopic(t, filepath.Join(proj, "a.md"), "A", "alpha")
	writeTopic(t, filepath.Join(proj, "sub", "b.md"), "B", "beta")
	c := NewCatalog(Roots{Project: proj, User: user}, WithWatch())
	defer c.Close()

	steps := []struct {
		name   string
		change func()
		want   bool // the scan after the change is answered by the watch
	}{
		{"first scan", func() {}, false},
		{"nothing changed", func() {}, true},
		{"nothing changed again", func() {}, true},
		{"topic rewritten", func() { writeTopic(t, filepath.Join(proj, "a.md"), "A", "alpha two") }, false},
		{"after the rescan", func() {}, true},
		{"index created", func() { os.WriteFile(filepath.Join(proj, "MEMORY.md"), []byte("- a"), 0o644) }, false},
		{"index rewritten", func() { os.WriteFile(filepath.Join(proj, "MEMORY.md"), []byte("- a\n- b"), 0o644) }, true},
		{"new directory with a topic", func() { writeTopic(t, filepath.Join(proj, "new", "deep", "c.md"), "C", "gamma") }, false},
		{"settled", func() {}, true},
		{"topic in the new directory", func() { writeTopic(t, filepath.Join(proj, "new", "deep", "d.md"), "D", "delta") }, false},
		{"settled again", func() {}, true},
		{"missing user root created", func() { writeTopic(t, filepath.Join(user, "u.md"), "U", "user") }, false},
		{"both roots watched", func() {}, true},
		{"user topic chmod", func() { os.Chmod(filepath.Join(user, "u.md"), 0o600) }, false},
		{"hidden file written", func() { os.WriteFile(filepath.Join(proj, ".swap"), []byte("x"), 0o644) }, true},
		{"directory removed", func() { os.RemoveAll(filepath.Join(proj, "new")) }, false},
		{"settled at last", func() {}, true},
	}
	var got, want []string
	for _, s := range steps {
		s.change()
		_, w := scanWatched(t, c)
		got = append(got, s.name+": "+map[bool]string{true: "watched", false: "scanned"}[w])
		want = append(want, s.name+": "+map[bool]string{true: "watched", false: "scanned"}[s.want])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("which scans the watch answered (-want +got):\n%s", diff)
	}
}

// TestWatchRootReplaced: a root renamed away and another directory put in
// its place, a root symlink retargeted, and a parent renamed report no
// event inside the watched tree; the root check catches them.
func TestWatchRootReplaced(t *testing.T) {
	base := t.TempDir()
	real1, real2 := filepath.Join(base, "r1"), filepath.Join(base, "r2")
	writeTopic(t, filepath.Join(real1, "a.md"), "One", "first")
	writeTopic(t, filepath.Join(real2, "a.md"), "Two", "second")
	link := filepath.Join(base, "root")
	if err := os.Symlink(real1, link); err != nil {
		t.Fatal(err)
	}
	c := NewCatalog(Roots{Project: link}, WithWatch())
	defer c.Close()
	scanWatched(t, c)
	if _, w := scanWatched(t, c); !w {
		t.Fatal("unchanged tree under a symlinked root was not answered by the watch")
	}
	// Retarget the root's link.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real2, link); err != nil {
		t.Fatal(err)
	}
	if res, w := scanWatched(t, c); w || res.Docs[0].Title != "Two" {
		t.Fatalf("retargeted root: watched=%v", w)
	}
	scanWatched(t, c)
	// Rename the root's parent away and put another tree in its place.
	if err := os.Rename(base, base+".old"); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base + ".old")
	writeTopic(t, filepath.Join(real2, "a.md"), "Three", "third")
	if err := os.Symlink(real2, link); err != nil {
		t.Fatal(err)
	}
	if res, w := scanWatched(t, c); w || res.Docs[0].Title != "Three" {
		t.Fatalf("parent replaced: watched=%v", w)
	}
}

// TestWatchFallbacks: whatever the watch cannot vouch for is revalidated
// by stat, every time, with the right result.
func TestWatchFallbacks(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, proj string, f *fakeInotify)
	}{
		{"watch limit (ENOSPC)", func(t *testing.T, proj string, f *fakeInotify) { f.addErr = syscall.ENOSPC }},
		{"instance limit (EMFILE)", func(t *testing.T, proj string, f *fakeInotify) { f.initErr = syscall.EMFILE }},
		{"no /proc (ENOENT)", func(t *testing.T, proj string, f *fakeInotify) { f.addErr = syscall.ENOENT }},
		{"network file system", func(t *testing.T, proj string, f *fakeInotify) { f.fsType = 0x6969 }},
		{"root not identifiable (fstat fails)", func(t *testing.T, proj string, f *fakeInotify) { f.fstatErr = syscall.EIO }},
		{"symlinked topic", func(t *testing.T, proj string, f *fakeInotify) {
			if err := os.Symlink("a.md", filepath.Join(proj, "link.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"hard-linked topic", func(t *testing.T, proj string, f *fakeInotify) {
			if err := os.Link(filepath.Join(proj, "a.md"), filepath.Join(t.TempDir(), "elsewhere.md")); err != nil {
				t.Skip("no hard links across these directories:", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proj := t.TempDir()
			writeTopic(t, filepath.Join(proj, "a.md"), "A", "alpha")
			writeTopic(t, filepath.Join(proj, "sub", "b.md"), "B", "beta")
			// The control: the same tree and the same fake kernel without
			// the fault is vouched for, so the fallback below is this
			// case's own fault, not something every case shares.
			control := NewCatalog(Roots{Project: proj}, withInotify(&fakeInotify{}))
			t.Cleanup(func() { control.Close() }) // also when scanWatched fails the test
			scanWatched(t, control)
			if _, w := scanWatched(t, control); !w {
				t.Fatal("control: without the fault the unchanged tree was not answered by the watch")
			}
			control.Close()
			f := &fakeInotify{}
			tt.setup(t, proj, f)
			c := NewCatalog(Roots{Project: proj}, withInotify(f))
			defer c.Close()
			for i := range 3 {
				if _, w := scanWatched(t, c); w {
					t.Fatalf("scan %d was answered by a watch that cannot vouch for the tree", i)
				}
			}
			// Only a refused instance is reported as refused (status
			// shows it): the other faults hold an instance and doubt it.
			if got, want := c.WatchRefused(), f.initErr != nil; got != want {
				t.Errorf("WatchRefused = %v, want %v", got, want)
			}
			writeTopic(t, filepath.Join(proj, "sub", "b.md"), "B", "beta changed")
			if res, _ := scanWatched(t, c); byRel(res.Docs)["sub/b.md"].Body != "beta changed" {
				t.Fatal("change not seen")
			}
		})
	}
}

// TestWatchOverflow: a lost event (IN_Q_OVERFLOW) makes the next scan a
// full one, after which the watch answers again.
func TestWatchOverflow(t *testing.T) {
	proj := t.TempDir()
	writeTopic(t, filepath.Join(proj, "a.md"), "A", "alpha")
	f := &fakeInotify{}
	c := NewCatalog(Roots{Project: proj}, withInotify(f))
	defer c.Close()
	scanWatched(t, c)
	if _, w := scanWatched(t, c); !w {
		t.Fatal("unchanged tree not answered by the watch")
	}
	f.mu.Lock()
	f.overflow = true
	f.mu.Unlock()
	if _, w := scanWatched(t, c); w {
		t.Fatal("scan after a queue overflow trusted the watch")
	}
	if c.watch.overflows != 1 {
		t.Fatalf("overflows = %d, want 1", c.watch.overflows)
	}
	if _, w := scanWatched(t, c); !w {
		t.Fatal("the watch was not re-armed after the overflow's full scan")
	}
}

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	return len(ents)
}

// settled polls count until it returns want, for at most two seconds, and
// returns the last count. The counts are the whole process's: a goroutine
// or descriptor of an earlier test may still be going away (a scan worker
// returning, a dropped catalog's GC cleanup closing its descriptor, the
// runtime starting its cleanup goroutine), so a transient difference is
// waited out; a lasting one — the defect looked for — is not.
func settled(count func() int, want int) int {
	return settledUntil(count, func(got int) bool { return got == want })
}

// watchGoroutines counts the goroutines the watch code started: those
// whose "created by" site is in watch_linux.go. Counting every goroutine
// instead would blame the watch for any other test's goroutine still
// running, and miss one of the watch's that such a goroutine's end hid.
func watchGoroutines() int {
	count := 0
	for _, g := range testenv.Goroutines() {
		_, created, ok := strings.Cut(g, "\ncreated by ")
		if !ok {
			continue
		}
		// The creator's line, then its file:line.
		if lines := strings.SplitN(created, "\n", 3); len(lines) >= 2 && strings.Contains(lines[1], "/memory/watch_linux.go:") {
			count++
		}
	}
	return count
}

func settledUntil(count func() int, ok func(int) bool) int {
	got := count()
	for deadline := time.Now().Add(2 * time.Second); !ok(got) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		runtime.GC()
		got = count()
	}
	return got
}

// TestWatchCloseReleases: Close gives back the inotify descriptor, the
// watch starts no goroutine, and a closed catalog still scans correctly.
func TestWatchCloseReleases(t *testing.T) {
	proj := t.TempDir()
	writeTopic(t, filepath.Join(proj, "a.md"), "A", "alpha")
	// The descriptors' baseline is taken after an unwatched catalog has
	// scanned the same tree, so whatever any catalog opens once is in it;
	// the watch must add its one inotify descriptor and no goroutine.
	if _, err := NewCatalog(Roots{Project: proj}).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	fds := openFDs(t)
	c := NewCatalog(Roots{Project: proj}, WithWatch())
	scanWatched(t, c)
	if _, w := scanWatched(t, c); !w {
		t.Fatal("unchanged tree not answered by the watch")
	}
	fdCount := func() int { return openFDs(t) }
	if got := settled(fdCount, fds+1); got != fds+1 {
		t.Errorf("open descriptors while watching: %d, want %d", got, fds+1)
	}
	if got := settled(watchGoroutines, 0); got != 0 {
		t.Errorf("goroutines the watch started: %d, want none", got)
	}
	c.Close()
	c.Close()
	if got := settled(fdCount, fds); got != fds {
		t.Errorf("open descriptors after Close: %d, want %d", got, fds)
	}
	writeTopic(t, filepath.Join(proj, "a.md"), "A", "alpha two")
	for range 2 {
		if res, w := scanWatched(t, c); w || res.Docs[0].Body != "alpha two" {
			t.Fatalf("scan after Close: watched=%v", w)
		}
	}
	if got := settled(fdCount, fds); got != fds {
		t.Errorf("open descriptors after scans of a closed catalog: %d, want %d", got, fds)
	}
}

// TestWatchCloseDuringScan: Close while a scan runs releases the watch
// when that scan ends.
func TestWatchCloseDuringScan(t *testing.T) {
	proj := t.TempDir()
	for i := range 50 {
		writeTopic(t, filepath.Join(proj, "d", string(rune('a'+i%26))+string(rune('a'+i/26))+".md"), "T", "body")
	}
	fds := openFDs(t)
	c := NewCatalog(Roots{Project: proj}, WithWatch())
	c.Warm()
	c.Close()
	scanWatched(t, c) // joins the warm-up or runs after it
	if got := openFDs(t); got != fds {
		t.Errorf("open descriptors after Close and the scan: %d, want %d", got, fds)
	}
}

// gatedFS holds the first read after armed is set until gate closes.
type gatedFS struct {
	osFS
	armed atomic.Bool
	gate  chan struct{}
}

func (g *gatedFS) readPrefix(path string, at fileAt, buf []byte) (int, fileKey, error) {
	if g.armed.CompareAndSwap(true, false) {
		<-g.gate
	}
	return g.osFS.readPrefix(path, at, buf)
}

// TestWatchJoinedScanSeesLaterChange: a Scan that joins a scan already
// under way, which listed the tree before a change the Scan must see,
// gets a result with the change (the watch says the joined result is
// stale, so it waits for a scan that starts after it).
func TestWatchJoinedScanSeesLaterChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		proj := t.TempDir()
		writeTopic(t, filepath.Join(proj, "a", "x.md"), "X", "ex")
		writeTopic(t, filepath.Join(proj, "b", "y.md"), "Y", "why")
		fsys := &gatedFS{gate: make(chan struct{})}
		c := NewCatalog(Roots{Project: proj}, WithWatch())
		c.fsys = fsys
		defer c.Close()
		mustScan(t, c)

		// A scan that lists everything, then waits in its first read.
		writeTopic(t, filepath.Join(proj, "a", "x.md"), "X", "ex two")
		fsys.armed.Store(true)
		c.Warm()
		synctest.Wait()
		// A change after that scan listed b/.
		writeTopic(t, filepath.Join(proj, "b", "new.md"), "New", "fresh")
		var got Result
		done := make(chan struct{})
		go func() {
			defer close(done)
			got = mustScan(t, c)
		}()
		synctest.Wait() // the Scan has joined the held scan
		close(fsys.gate)
		<-done
		if byRel(got.Docs)["b/new.md"] == nil {
			t.Fatalf("the joining Scan missed a change made before it began: %d docs", len(got.Docs))
		}
	})
}

// TestWatchReleasedWhenCollected: a catalog dropped without Close gives
// its descriptor back when the garbage collector finds it unreachable.
func TestWatchReleasedWhenCollected(t *testing.T) {
	proj := t.TempDir()
	writeTopic(t, filepath.Join(proj, "a.md"), "A", "alpha")
	w := func() *watcher {
		c := NewCatalog(Roots{Project: proj}, WithWatch())
		mustScan(t, c)
		if !c.Watching() {
			t.Fatal("no watch after a scan")
		}
		return c.watch
	}()
	// Cleanups run on their own goroutine after a collection: give it a
	// bounded number of chances (not a timing assertion: the bound only
	// stops a broken cleanup from hanging the test).
	for i := 0; i < 500 && w.holds(); i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if w.holds() {
		t.Fatal("the descriptor of an unreachable catalog was never released")
	}
}

// TestWatchRefusedClears: a refused instance is reported until a later
// full scan gets one.
func TestWatchRefusedClears(t *testing.T) {
	proj := t.TempDir()
	writeTopic(t, filepath.Join(proj, "a.md"), "A", "alpha")
	f := &fakeInotify{initErr: syscall.EMFILE}
	c := NewCatalog(Roots{Project: proj}, withInotify(f))
	defer c.Close()
	if c.WatchRefused() {
		t.Fatal("refused before any scan")
	}
	scanWatched(t, c)
	if !c.WatchRefused() || c.Watching() {
		t.Fatalf("after a refused instance: WatchRefused %v, Watching %v; want true, false", c.WatchRefused(), c.Watching())
	}
	f.mu.Lock()
	f.initErr = nil
	f.mu.Unlock()
	scanWatched(t, c)
	if c.WatchRefused() {
		// The real kernel stands behind the fake now: it may refuse too.
		fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
		if err != nil {
			t.Skip("the kernel refuses this user an inotify instance now:", err)
		}
		syscall.Close(fd)
		t.Errorf("after a scan that got an instance: WatchRefused %v, Watching %v; want false, true", c.WatchRefused(), c.Watching())
	}
}

// TestIsLocalFS: every file-system magic number is recognised (or not)
// whatever integer type the platform gives Statfs_t.Type: as an int32 (386,
// arm) btrfs, f2fs and ramfs have the high bit set and read negative, and
// must still match, as must nothing else with its high bit set (SMB, CIFS).
func TestIsLocalFS(t *testing.T) {
	tests := []struct {
		name  string
		magic int64
		local bool
	}{
		{"ext4", 0xEF53, true},
		{"xfs", 0x58465342, true},
		{"btrfs", 0x9123683E, true},
		{"tmpfs", 0x01021994, true},
		{"f2fs", 0xF2F52010, true},
		{"zfs", 0x2FC12FC1, true},
		{"ramfs", 0x858458F6, true},
		{"nfs", 0x6969, false},
		{"fuse", 0x65735546, false},
		{"overlay", 0x794C7630, false},
		{"smb2", 0xFE534D42, false},
		{"cifs", 0xFF534D42, false},
		{"zero", 0, false},
	}
	for _, tt := range tests {
		var i32 int32
		var u32 uint32
		var i64 int64
		setFSType(&i32, tt.magic)
		setFSType(&u32, tt.magic)
		setFSType(&i64, tt.magic)
		got := []bool{isLocalFS(i32), isLocalFS(u32), isLocalFS(i64)}
		want := []bool{tt.local, tt.local, tt.local}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (%#x) as int32, uint32, int64 (-want +got):\n%s", tt.name, tt.magic, diff)
		}
	}
}
