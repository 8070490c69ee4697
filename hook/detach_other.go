//go:build !unix

package hook

import "os/exec"

// detach leaves cmd as it is where there are no Unix sessions (Windows):
// a started process already outlives the hook that released it.
func detach(*exec.Cmd) {}
