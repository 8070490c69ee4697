package hook

import (
	"flag"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/memrecall/memrecall/daemon/wire"
)

// Main is the whole hook command, shared by `memrecall hook` and the
// hook-only binary `memrecall-hook`: it parses --agent and --no-start,
// runs one event and returns the exit code — always 0, except 2 for bad
// flags (the installer's mistake, not a runtime failure). daemonExe is the
// binary whose `daemon --detached` is started when no daemon answers; ""
// never starts one.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, daemonExe string) int {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	agentName := fs.String("agent", "", "the agent that runs the hook: claude, gemini or qwen")
	noStart := fs.Bool("no-start", false, "do not start a daemon when none is running")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		return 2
	}
	return Event(*agentName, stdin, stdout, daemonExe, !*noStart)
}

// Event runs one hook event of agent with the environment's runtime
// directory, starting `daemonExe daemon --detached` when start is set and
// no daemon answers, and returns 0: the hook fails open.
func Event(agentName string, stdin io.Reader, stdout io.Writer, daemonExe string, start bool) int {
	cfg := Config{
		Agent:   agentName,
		Stdin:   stdin,
		Stdout:  stdout,
		Dir:     wire.Dir(os.Getenv),
		Environ: os.Environ(),
	}
	if start && daemonExe != "" {
		cfg.Start = func() error { return StartDaemon(daemonExe, cfg.Dir) }
	}
	_ = Run(cfg) // fails open: nothing printed, exit 0
	return 0
}

// StartDaemon starts `exe daemon --detached` detached from the agent: a
// new session (so the agent's process group and terminal signals do not
// reach it), stdio on /dev/null (so it holds none of the hook's pipes
// open: an agent waits for its hook's stdout to close), cwd /, and the
// runtime directory dir. It returns once the process exists.
func StartDaemon(exe, dir string) error {
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
