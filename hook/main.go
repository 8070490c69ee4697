package hook

import (
	"flag"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
)

// Flags are the hook command's flags, declared on a FlagSet by
// DeclareFlags: one declaration for `memrecall hook` and `memrecall-hook`.
type Flags struct {
	// Agent is --agent: claude, gemini or qwen.
	Agent *string
	// NoStart is --no-start: never start a daemon.
	NoStart *bool
}

// DeclareFlags declares the hook's flags on fs.
func DeclareFlags(fs *flag.FlagSet) Flags {
	return Flags{
		Agent:   fs.String("agent", "", "the agent that runs the hook: claude, gemini or qwen"),
		NoStart: fs.Bool("no-start", false, "do not start a daemon when none is running"),
	}
}

// Run runs one event with the parsed flags: Event, with no daemonExe under
// --no-start. It returns 0.
func (f Flags) Run(stdin io.Reader, stdout io.Writer, daemonExe func() string) int {
	if *f.NoStart {
		daemonExe = nil
	}
	return Event(*f.Agent, stdin, stdout, daemonExe)
}

// Main is the whole hook command of the hook-only binary `memrecall-hook`
// (`memrecall hook` declares the same flags with the command line's help
// text): it parses --agent and --no-start, runs one event and returns the
// exit code — always 0, except 2 for bad flags (the installer's mistake,
// not a runtime failure). daemonExe finds the binary whose `daemon
// --detached` is started when no daemon answers; it is called only then
// (not on every event), and "" or a nil daemonExe never starts one.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, daemonExe func() string) int {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := DeclareFlags(fs)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		return 2
	}
	return f.Run(stdin, stdout, daemonExe)
}

// Event runs one hook event of agent with the environment's runtime
// directory, starting `daemonExe() daemon --detached` when no daemon
// answers and daemonExe is set, and returns 0: the hook fails open.
func Event(agentName string, stdin io.Reader, stdout io.Writer, daemonExe func() string) int {
	cfg := Config{
		Agent:   agentName,
		Stdin:   stdin,
		Stdout:  stdout,
		Dir:     wire.Dir(os.Getenv),
		Environ: os.Environ(),
		Budget:  envBudget(os.Getenv(EnvBudget)),
	}
	if daemonExe != nil {
		cfg.Start = func(lock *os.File) error {
			defer lock.Close() // the child has its own copy; nil-safe
			exe := daemonExe()
			if exe == "" {
				return ErrNoDaemon
			}
			return StartDaemon(exe, cfg.Dir, lock)
		}
	}
	_ = Run(cfg) // fails open: nothing printed, exit 0
	return 0
}

// EnvBudget overrides Budget for a slow machine, as a Go duration ("2s").
// Values outside (0, MaxBudget] are ignored.
const EnvBudget = "MEMRECALL_HOOK_BUDGET"

// MaxBudget is the largest EnvBudget accepted: below the 10 s hook
// timeout `memrecall install` writes, so the agent never kills the hook.
const MaxBudget = 9 * time.Second

func envBudget(v string) time.Duration {
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 || d > MaxBudget {
		return 0
	}
	return d
}

// LockFD is the descriptor number under which StartDaemon passes the
// runtime directory's lock to the daemon (`daemon --lock-fd 3`).
const LockFD = 3

// StartDaemon starts `exe daemon --detached` detached from the agent: a
// new session (so the agent's process group and terminal signals do not
// reach it), stdio on /dev/null (so it holds none of the hook's pipes
// open: an agent waits for its hook's stdout to close), cwd /, and the
// runtime directory dir. lock, when not nil, is the runtime directory's
// lock file, locked by this hook: the daemon inherits it as descriptor
// LockFD and keeps it as its instance lock. It returns once the process
// exists. It does not create dir: the hook made and checked it before
// taking the lock (awaitDaemon), and the daemon checks it again in Listen.
func StartDaemon(exe, dir string, lock *os.File) error {
	args := []string{"daemon", "--detached"}
	cmd := exec.Command(exe)
	if lock != nil {
		cmd.ExtraFiles = []*os.File{lock} // fd 3 in the child
		args = append(args, "--lock-fd", strconv.Itoa(LockFD))
	}
	cmd.Args = append(cmd.Args, args...)
	cmd.Env = append(os.Environ(), wire.EnvDir+"="+dir)
	cmd.Dir = "/"
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
