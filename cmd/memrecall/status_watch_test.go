package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/daemon/wire"
)

// TestWatchState: status's WATCH cell tells a refused inotify instance
// from a watch and from no watch asked for.
func TestWatchState(t *testing.T) {
	var got, want []string
	for _, tc := range []struct {
		name string
		c    wire.Corpus
		want string
	}{
		{"watched", wire.Corpus{Scanned: true, Watched: true}, "inotify"},
		{"refused", wire.Corpus{Scanned: true, WatchRefused: true}, "refused"},
		{"no watch yet", wire.Corpus{}, "stat"},
	} {
		got = append(got, tc.name+": "+watchState(tc.c))
		want = append(want, tc.name+": "+tc.want)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("watchState (-want +got):\n%s", d)
	}
}
