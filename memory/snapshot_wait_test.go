package memory

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/memrecall/memrecall/internal/testenv"
)

// heldExtra's EncodeSnapshot holds the writer until release is closed.
type heldExtra struct{ entered, release chan struct{} }

func (x heldExtra) EncodeSnapshot([]*Document) []byte {
	x.entered <- struct{}{}
	<-x.release
	return nil
}

func (heldExtra) LoadSnapshot([]*Document, []byte) error { return nil }

// TestWaitSnapshotBesideLaterWrite: a host waits for a write (a daemon
// session's Engine.Shutdown) while another, unsynchronised with it (the
// scan of another session on the same corpus), queues the next one. The
// wait returns once the first write is done and the next write runs; as
// a sync.WaitGroup reused across writes this was an Add from zero beside
// a Wait, which the WaitGroup forbids (a data race under -race, and a
// "WaitGroup is reused before previous Wait has returned" panic when the
// Add lands as the waiter wakes).
func TestWaitSnapshotBesideLaterWrite(t *testing.T) {
	roots := snapTree(t)
	x := heldExtra{make(chan struct{}, 1), make(chan struct{})}
	c := NewCatalog(roots, WithSnapshot(filepath.Join(t.TempDir(), "x.snap"), "v1", x))
	c.racyWindow = 0
	defer c.Close()
	if _, err := c.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-x.entered // the first write is under way
	waited := make(chan struct{})
	go func() {
		c.WaitSnapshot()
		close(waited)
	}()
	for i := 0; !testenv.GoroutineWith("memory.(*Catalog).WaitSnapshot("); i++ {
		if i == 10000 {
			close(x.release)
			t.Fatal("WaitSnapshot did not come to wait in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	close(x.release) // the first write ends; the waiter wakes
	writeFile(t, roots.Project, "a.md", topic("user", "Alpha", "changed"), time.Minute)
	if _, err := c.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-waited
	c.WaitSnapshot()
	if st := c.SnapshotStats(); st.Written != 2 {
		t.Errorf("%+v, want two writes", st)
	}
}
