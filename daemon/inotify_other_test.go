//go:build !linux

package daemon

// inotifyRefused: no inotify off Linux, and no test asks there.
func inotifyRefused() error { return nil }
