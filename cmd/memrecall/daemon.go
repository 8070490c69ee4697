package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/daemon/wire"
)

// runDaemon is `memrecall daemon`: the per-user recall daemon, in the
// foreground (logging to stderr) unless --detached, which the hook uses
// when it starts one.
func runDaemon(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("daemon", flag.ContinueOnError)
	fs.SetOutput(stderr)
	detached := fs.Bool("detached", false, "started by a hook: log nothing, exit quietly when another daemon runs")
	idle := fs.Duration("idle", 0, "exit after this long without an event (0: the config's idle_exit, else 1h)")
	stop := fs.Bool("stop", false, "ask the running daemon to exit, then return")
	lockFD := fs.Int("lock-fd", -1, "for the hook that starts the daemon: the runtime directory's lock, already locked, inherited as this descriptor")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	dir := wire.Dir(os.Getenv)
	if *stop {
		if _, err := ask(dir, wire.Request{Version: wire.Version, Op: wire.OpExit}); err != nil {
			fmt.Fprintf(stderr, "daemon: %v\n", err)
			return 1
		}
		return 0
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	// A detached daemon has no terminal: it logs to a size-bounded file in
	// the runtime directory (decision 0722), or nowhere if that cannot be
	// opened. The file is opened only once Listen holds the instance lock:
	// a daemon that loses the start race must not append to, or rotate,
	// the running daemon's log. Until then its lines go nowhere, and a
	// Listen that fails is told in the start note instead.
	var detachedLog lockedLog
	if *detached {
		logger = slog.New(slog.NewTextHandler(&detachedLog, nil))
	}
	home, _ := os.UserHomeDir()
	cfgPath := daemon.ConfigPath(os.Getenv, home)
	cfg, cfgErr := daemon.LoadConfig(cfgPath, os.Getenv)
	opts := daemon.Options{
		Dir: dir, Config: cfg, ConfigErr: cfgErr, ConfigPath: cfgPath, IdleExit: *idle,
		Logger: logger, SnapshotDir: snapshotDir(false),
	}
	if *lockFD >= 0 {
		opts.Lock = os.NewFile(uintptr(*lockFD), wire.LockName)
	}
	srv, err := daemon.Listen(opts)
	if why := daemon.StartFailure(err); why != "" && *detached {
		// No terminal, and the log belongs to the lock holder: the start
		// note says why (a kind and a system error's name, no path), and
		// `memrecall status` shows it. Losing the start race is no
		// failure (another daemon runs): StartFailure names none, and no
		// note is written.
		daemon.WriteStartNote(dir, time.Now(), why)
	}
	if errors.Is(err, daemon.ErrRunning) {
		logger.Info("another daemon holds the lock; exiting")
		if *detached {
			return 0 // another hook's daemon won the race
		}
		fmt.Fprintln(stderr, "daemon: another daemon is running (memrecall daemon --stop ends it)")
		return 1
	}
	if err != nil {
		logger.Warn("daemon could not listen", "why", daemon.StartFailure(err))
		fmt.Fprintf(stderr, "daemon: %v\n", err)
		return 1
	}
	// Listen made the runtime directory and holds the lock: an older
	// start's failure is moot now, whether this daemon is detached or not
	// (decision 0722).
	daemon.RemoveStartNote(dir)
	if *detached {
		// No goroutine of the server runs before Serve.
		if lf, err := daemon.OpenLog(dir, 0); err == nil {
			defer lf.Close()
			detachedLog.f = lf
		}
	}
	if cfgErr == nil && daemon.ConfigExposed(cfgPath) {
		logger.Warn("config file is readable by group or others; chmod 600 it before it holds a key")
	}
	if cfgErr != nil {
		// Fail open: serve, but answer nothing until the config is fixed.
		// The kind only: the error's text names the file and may quote it.
		logger.Warn("config not used; answering every event with nothing", "kind", daemon.ConfigErrorKind(cfgErr))
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if err := srv.Serve(ctx); err != nil {
		fmt.Fprintf(stderr, "daemon: %v\n", err)
		return 1
	}
	return 0
}

// lockedLog is a detached daemon's log before and after it holds the
// instance lock: it drops every line until f is set, then writes to f.
type lockedLog struct{ f *daemon.LogFile }

func (l *lockedLog) Write(p []byte) (int, error) {
	if l.f == nil {
		return len(p), nil
	}
	return l.f.Write(p)
}

// ask sends one request to the running daemon and returns its answer.
func ask(dir string, req wire.Request) (wire.Response, error) {
	return daemon.Ask(dir, req, 2*time.Second)
}
