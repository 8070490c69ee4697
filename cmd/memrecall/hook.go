package main

import (
	"flag"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/memrecall/memrecall/daemon/wire"
	"github.com/memrecall/memrecall/hook"
)

// runHook is `memrecall hook --agent X`: it always returns 0 and writes
// nothing but the agent's answer, so an agent never sees an error from
// memrecall (a hook fails open). Flag errors are the one exception: they
// are the installer's mistake, not a runtime failure, and exit 2.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agentName := fs.String("agent", "", "the agent that runs the hook: claude, gemini or qwen")
	noStart := fs.Bool("no-start", false, "do not start a daemon when none is running")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	cfg := hook.Config{
		Agent:   *agentName,
		Stdin:   stdin,
		Stdout:  stdout,
		Dir:     wire.Dir(os.Getenv),
		Environ: os.Environ(),
	}
	if !*noStart {
		cfg.Start = func() error { return startDaemon(cfg.Dir) }
	}
	_ = hook.Run(cfg) // fails open: nothing printed, exit 0
	return 0
}

// startDaemon starts `memrecall daemon` detached from the agent: a new
// session (so the agent's process group and terminal signals do not reach
// it), stdio on /dev/null (so it holds none of the hook's pipes open: an
// agent waits for the hook's stdout to close), the same runtime directory.
func startDaemon(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if err := wire.EnsureDir(dir); err != nil {
		return err
	}
	cmd := exec.Command(exe, "daemon", "--detached")
	cmd.Env = append(os.Environ(), wire.EnvDir+"="+dir)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
