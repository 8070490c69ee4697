//go:build !unix

package daemon

import "os/exec"

// asNobody does nothing where there are no Unix users; the test that
// uses it needs root and is skipped there.
func asNobody(*exec.Cmd) {}
