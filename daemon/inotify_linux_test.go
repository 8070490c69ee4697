package daemon

import (
	"syscall"
	"testing"
)

// inotifyRefused reports why the kernel refuses this user a new inotify
// instance now (EMFILE at the per-user limit, shared with every process
// of the user), or nil when it gives one.
func inotifyRefused() error {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		return err
	}
	return syscall.Close(fd)
}

// TestStatusReportsWatch: once its corpus is scanned, status says whether
// the corpus holds an inotify watch or the kernel refused it one (it then
// revalidates by stat), and counts the refused corpora, naming no path.
func TestStatusReportsWatch(t *testing.T) {
	s := newServer(claudeOpts(t, copyTree(t)))
	defer s.shutdownSessions()
	s.Handle(event("claude", "a", "UserPromptSubmit", prompt("deploy checklist")))
	st := s.Status()
	if len(st.Corpora) != 1 || !st.Corpora[0].Scanned {
		t.Fatalf("corpora after a query: %+v, want one, scanned", st.Corpora)
	}
	c := st.Corpora[0]
	if c.Watched == c.WatchRefused {
		t.Errorf("corpus watched %v, watch refused %v: want exactly one", c.Watched, c.WatchRefused)
	}
	if want := map[bool]int{true: 1}[c.WatchRefused]; st.WatchRefused != want {
		t.Errorf("status counts %d refused corpora, want %d", st.WatchRefused, want)
	}
	if c.WatchRefused {
		if err := inotifyRefused(); err == nil {
			t.Log("the kernel refused the corpus a watch, and gives one now: it was at its limit then")
		}
	}
}
