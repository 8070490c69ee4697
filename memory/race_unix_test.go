//go:build unix

package memory

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/testenv"
)

// Race tests: a writer goroutine keeps changing the tree while scans run,
// for at most raceIterations scans or the budget, whichever comes first
// (half a second each in the quick suite; MEMRECALL_DEEP=1 gives 15 s, which
// is what it took the old walk to lose every one of these races at least
// once). They assert what must hold on every scan, whatever the
// interleaving; a scan that does not return within scanDeadline is a hang.
const (
	raceIterations = 100000
	scanDeadline   = 5 * time.Second
)

func raceBudget() time.Duration {
	if os.Getenv("MEMRECALL_DEEP") != "" {
		return 15 * time.Second
	}
	return 500 * time.Millisecond
}

// raceLoop runs swap in a loop on its own goroutine and scans root until
// the budget is spent, calling check on every result.
func raceLoop(t *testing.T, roots Roots, swap func(i int), check func(Result)) {
	t.Helper()
	loops := testenv.NewLoops()
	loops.Go(swap)
	defer loops.Stop()
	end := time.Now().Add(raceBudget())
	for i := 0; i < raceIterations && time.Now().Before(end); i++ {
		ctx, cancel := context.WithTimeout(context.Background(), scanDeadline)
		res, err := Scan(ctx, roots)
		cancel()
		if err != nil {
			t.Fatalf("scan %d did not return within %v: %v (a FIFO opened in blocking mode?)", i, scanDeadline, err)
		}
		check(res)
	}
}

// releaseFIFOs opens every FIFO at the given paths for writing without
// blocking, which lets a reader stuck in open(2) go (so a failing test
// leaves no goroutine behind).
func releaseFIFOs(t *testing.T, paths ...string) {
	t.Cleanup(func() {
		for range 20 {
			for _, p := range paths {
				if fd, err := syscall.Open(p, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					syscall.Close(fd)
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
}

// TestScanSurvivesDirectorySwappedForFIFO: a directory (a subdirectory,
// the root itself, or the target of a directory symlink) is renamed away
// and a FIFO of the same name put in its place, and back, again and again.
// No scan may block, and every scan still finds the documents that stay.
func TestScanSurvivesDirectorySwappedForFIFO(t *testing.T) {
	for _, tc := range []struct {
		name string
		// victim is the directory that turns into a FIFO, relative to the
		// test directory; root is the scope root.
		victim, root string
	}{
		{"subdirectory", "root/sub", "root"},
		{"root", "root", "root"},
		{"symlinked directory", "root/real", "root"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, tc.root)
			writeFile(t, root, "stay.md", topic("user", "Stay", "s"), 0)
			writeFile(t, root, "sub/inner.md", topic("user", "Inner", "i"), 0)
			writeFile(t, root, "real/linked.md", topic("user", "Linked", "l"), 0)
			symlink(t, "real", filepath.Join(root, "link"))
			victim := filepath.Join(dir, tc.victim)
			away := victim + ".away"
			releaseFIFOs(t, victim)
			raceLoop(t, Roots{Project: root}, func(int) {
				if os.Rename(victim, away) != nil {
					return
				}
				if err := mkfifo(victim); err == nil {
					time.Sleep(50 * time.Microsecond)
					os.Remove(victim)
				}
				os.Rename(away, victim)
			}, func(res Result) {
				titles := map[string]bool{}
				for _, d := range res.Docs {
					titles[d.Title] = true
				}
				if tc.victim != "root" {
					if !titles["Stay"] {
						t.Errorf("stay.md missing: %v (skips %v)", view(res.Docs), res.Skipped)
					}
					return
				}
				// The root may be away or a FIFO when the scan opens it,
				// so no document is certain. What holds is all or
				// nothing: a scan that could not open the root counts it
				// missing and finds nothing; one that did reads the tree
				// below its handle, which the writer never touches, so
				// every real file is there (link/linked.md is not
				// required: its target is resolved by path, which may
				// pass through the FIFO).
				if res.Skipped[SkipRootMissing] == 1 {
					if len(res.Docs) != 0 || res.Skipped.Total() != 1 {
						t.Errorf("root missing, yet %v (skips %v)", view(res.Docs), res.Skipped)
					}
					return
				}
				if !titles["Stay"] || !titles["Inner"] || !titles["Linked"] {
					t.Errorf("root opened, yet a file below it is missing: %v (skips %v)", view(res.Docs), res.Skipped)
				}
			})
		})
	}
}

// TestScanNeverReadsOutsideRootUnderSymlinkSwaps: a writer swaps link.md
// between a target inside the root and a secret outside it, and swaps a
// subdirectory for a symlink to an outside directory. Whatever the timing,
// no document may carry the secret's content.
func TestScanNeverReadsOutsideRootUnderSymlinkSwaps(t *testing.T) {
	for _, tc := range []struct {
		name string
		swap func(root, outside string) func(int)
	}{
		{"file link retargeted", func(root, outside string) func(int) {
			link, tmp := filepath.Join(root, "link.md"), filepath.Join(root, ".tmp-link")
			secret := filepath.Join(outside, "secret.md")
			return func(i int) {
				target := "data.txt"
				if i%2 == 0 {
					target = secret
				}
				os.Remove(tmp)
				if os.Symlink(target, tmp) == nil {
					os.Rename(tmp, link) // atomic: link.md always exists
				}
			}
		}},
		{"directory swapped for a link", func(root, outside string) func(int) {
			sub, away := filepath.Join(root, "sub"), filepath.Join(root, ".sub-away")
			return func(int) {
				if os.Rename(sub, away) != nil {
					return
				}
				if os.Symlink(outside, sub) == nil {
					time.Sleep(50 * time.Microsecond)
					os.Remove(sub)
				}
				os.Rename(away, sub)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			writeFile(t, root, "data.txt", topic("user", "Inside", "i"), 0)
			writeFile(t, root, "stay.md", topic("user", "Stay", "s"), 0)
			writeFile(t, root, "sub/a.md", topic("user", "Inside A", "a"), 0)
			writeFile(t, outside, "secret.md", topic("user", "Secret", "outside"), 0)
			writeFile(t, outside, "a.md", topic("user", "Secret", "outside"), 0)
			symlink(t, "data.txt", filepath.Join(root, "link.md"))
			raceLoop(t, Roots{Project: root}, tc.swap(root, outside), func(res Result) {
				for _, d := range res.Docs {
					if d.Title == "Secret" {
						t.Fatalf("%s holds the content of a file outside the root", d.RelPath)
					}
				}
			})
		})
	}
}
