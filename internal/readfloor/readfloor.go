// Package readfloor measures the least work any scan of a memory tree must
// do: list the roots, then open, read and close every topic file with plain
// system calls. It is the floor spec §8 compares the cold scan and the cold
// engine against, shared by the benchmarks of memory/ and recall/ so both
// compare with the same thing.
package readfloor

import (
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"
)

// Read lists the roots recursively, then opens, reads up to bufSize bytes
// of and closes every .md file, spread over workers the way the scan
// spreads them, each worker reusing one buffer. It returns the number of
// files read; a root that cannot be listed contributes none.
func Read(roots []string, workers, bufSize int) int {
	return read(roots, workers, bufSize, false)
}

// ReadStat is Read with a stat of each file's open descriptor before the
// read (fstat): the least a scan that keeps what it read must do, since
// the file's size, modification time and inode are what later scans
// trust it by, and taking them from the descriptor before the read is the
// order that never files a newer key with older content (decision 0614).
// It is a second floor beside Read, not a replacement.
func ReadStat(roots []string, workers, bufSize int) int {
	return read(roots, workers, bufSize, true)
}

func read(roots []string, workers, bufSize int, withStat bool) int {
	paths := list(roots)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			buf := make([]byte, bufSize)
			var st statBuf
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				fd, err := syscall.Open(paths[i], syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
				if err != nil {
					continue
				}
				if !withStat || statOpen(&st, fd, paths[i]) {
					if _, err := syscall.Read(fd, buf); err == nil {
						done.Add(1)
					}
				}
				syscall.Close(fd)
			}
		})
	}
	wg.Wait()
	return int(done.Load())
}

// Stat is the floor of a scan that trusts unchanged files: list the roots
// recursively, then stat every .md file (no open, no read), spread over
// workers. It returns the number of files stated. A fresh process with a
// persistent snapshot cannot do less on a tree it must revalidate.
func Stat(roots []string, workers int) int {
	paths := list(roots)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			var st statBuf
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				if st.stat(paths[i]) {
					done.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return int(done.Load())
}

// Decode is the least user-space work a query can do with the text it
// read: one utf8.DecodeRuneInString pass over every string, the unit
// issue 12's tokenising goal is stated in (score's decodeFloor, over the
// same fields). It returns the number of runes decoded, an invalid byte
// counting as one, as utf8.RuneCountInString counts them. Kept out of
// line so a benchmark times the pass, not what the compiler makes of it
// at the call site.
//
//go:noinline
func Decode(texts []string) int {
	n := 0
	for _, s := range texts {
		for i := 0; i < len(s); {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			n++
		}
	}
	return n
}

// list returns the .md files under roots, recursively.
func list(roots []string) []string {
	var paths []string
	var list func(dir string)
	list = func(dir string) {
		f, err := os.Open(dir)
		if err != nil {
			return
		}
		ents, _ := f.ReadDir(-1)
		f.Close()
		for _, e := range ents {
			p := dir + "/" + e.Name()
			switch {
			case e.IsDir():
				list(p)
			case strings.HasSuffix(e.Name(), ".md"):
				paths = append(paths, p)
			}
		}
	}
	for _, r := range roots {
		list(r)
	}
	return paths
}
