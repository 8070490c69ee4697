//go:build !unix

package e2e

import "os/exec"

// ownGroup does nothing where there are no Unix process groups: the
// end-to-end runs are Unix-only (e2e/install.sh), this keeps the package
// building elsewhere.
func ownGroup(*exec.Cmd) {}

// killGroup kills cmd's process alone.
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
