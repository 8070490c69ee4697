//go:build unix

package hook

import (
	"os/exec"
	"syscall"
)

// detach makes cmd the leader of a new session, so the daemon outlives
// the hook and its terminal.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
