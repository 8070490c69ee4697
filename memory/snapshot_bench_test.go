package memory

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/memrecall/memrecall/internal/gentree"
)

// BenchmarkSnapshotLoad is the memory side of a fresh catalog's snapshot
// load alone: read the file, check it, decode its records into documents
// and the seeded cache (loadSnapshot), on a generated tree's snapshot
// without extra data (the engine's adds its frozen index; recall's
// BenchmarkSnapshotVsStatFloor has the whole fresh engine). The heap is
// the benchmark's, reused from one load to the next.
func BenchmarkSnapshotLoad(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, lang := range []gentree.Lang{gentree.English, gentree.Chinese} {
			b.Run(fmt.Sprintf("topics=%d/lang=%s", n, lang), func(b *testing.B) {
				project, user, _, err := gentree.Write(b.TempDir(), lang, n)
				if err != nil {
					b.Fatal(err)
				}
				roots := Roots{Project: project, User: user}
				file := filepath.Join(b.TempDir(), "x.snap")
				c := NewCatalog(roots, WithSnapshot(file, "bench", nil))
				c.racyWindow = 0 // the generated files are new: persist them all
				if _, err := c.Scan(b.Context()); err != nil {
					b.Fatal(err)
				}
				c.WaitSnapshot()
				b.ReportAllocs()
				for b.Loop() {
					fresh := NewCatalog(roots, WithSnapshot(file, "bench", nil))
					seed, _ := fresh.loadSnapshot(nil)
					if got := len(seed[ScopeProject]) + len(seed[ScopeUser]); got != n {
						b.Fatalf("loaded %d entries, want %d", got, n)
					}
				}
			})
		}
	}
}

// BenchmarkSnapshotRecords is the snapshot writer's first step after a
// cold scan of a generated tree: the records made from the scan's jobs
// and outcomes, sorted in the result's order (snapSource.records). It
// runs on the writer's goroutine; until the seventh round the scan
// goroutine made them, before the scan's result existed (decision 0805).
func BenchmarkSnapshotRecords(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("topics=%d/lang=%s", n, gentree.English), func(b *testing.B) {
			project, user, _, err := gentree.Write(b.TempDir(), gentree.English, n)
			if err != nil {
				b.Fatal(err)
			}
			c := NewCatalog(Roots{Project: project, User: user}, WithSnapshot(filepath.Join(b.TempDir(), "x.snap"), "bench", nil))
			c.racyWindow = 0 // the generated files are new: persist them all
			heldWriter(c)
			if _, err := c.Scan(b.Context()); err != nil {
				b.Fatal(err)
			}
			src := takeQueued(c)
			b.ReportAllocs()
			for b.Loop() {
				if got := len(src.records()); got != n {
					b.Fatalf("%d records, want %d", got, n)
				}
			}
		})
	}
}
