//go:build !linux

package memory

// watcher is the file-system watch; only Linux has one (watch_linux.go).
// Elsewhere the catalog never creates it, and every scan revalidates by
// listing and stat.
type watcher struct{}

// inotifySys exists on Linux only.
type inotifySys interface{}

func newWatcher(inotifySys) *watcher { return nil }

func (*watcher) arm()                                   {}
func (*watcher) doubt()                                 {}
func (*watcher) addDir(*dirHandle)                      {}
func (*watcher) root(string, string, *dirHandle, error) {}
func (*watcher) settle(bool)                            {}
func (*watcher) unchanged() bool                        { return false }
func (*watcher) release()                               {}
func (*watcher) holds() bool                            { return false }
func (*watcher) wasRefused() bool                       { return false }
func (*watcher) vouches() bool                          { return false }
