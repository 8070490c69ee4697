package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/memrecall/memrecall/daemon"
	"github.com/memrecall/memrecall/daemon/wire"
)

// runStatus is `memrecall status`: what the daemon holds, in counts,
// hashes and durations — never a prompt, a memory or a path.
func runStatus(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the status as JSON")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	dir := wire.Dir(os.Getenv)
	resp, err := ask(dir, wire.Request{Version: wire.Version, Op: wire.OpStatus})
	if err != nil || resp.Status == nil {
		// A detached daemon that did not start left its reason here.
		// ReadStartNote refuses a note another user could have planted;
		// termSafe still escapes whatever it holds before it reaches the
		// terminal.
		note, _ := daemon.ReadStartNote(dir)
		if *asJSON {
			out, _ := json.MarshalIndent(noDaemon{LastStart: note}, "", "  ")
			fmt.Fprintf(stdout, "%s\n", out)
			return 1
		}
		fmt.Fprintln(stdout, "no daemon running")
		if note != "" {
			fmt.Fprintf(stdout, "last start: %s\n", termSafe(note))
		}
		return 1
	}
	st := resp.Status
	if *asJSON {
		out, _ := json.MarshalIndent(st, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	fmt.Fprintf(stdout, "daemon pid %d, version %d, up %s, selector %v", st.PID, st.Version,
		(time.Duration(st.UptimeMS) * time.Millisecond).Round(time.Second), st.Selector)
	if st.ConfigError {
		fmt.Fprint(stdout, ", CONFIG ERROR (answering nothing)")
	}
	fmt.Fprintln(stdout)
	if n := len(st.LatenciesUS); n > 0 {
		l := slices.Sorted(slices.Values(st.LatenciesUS))
		fmt.Fprintf(stdout, "recent events: %d, p50 %s, max %s\n", n,
			time.Duration(l[n/2])*time.Microsecond, time.Duration(l[n-1])*time.Microsecond)
	}
	if st.WatchRefused > 0 {
		fmt.Fprintf(stdout, "inotify refused for %d corpora: they revalidate by stat (the per-user limit, fs.inotify.max_user_instances, may be reached)\n", st.WatchRefused)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nCORPUS\tROOTS\tDOCS\tSESSIONS\tWATCH")
	for _, c := range st.Corpora {
		docs := fmt.Sprint(c.Docs)
		if !c.Scanned {
			docs = "scanning"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\n", c.Hash, c.Roots, docs, c.Sessions, watchState(c))
	}
	fmt.Fprintln(tw, "\nAGENT\tSESSION\tCORPUS\tEVENTS\tPLAN\tINJECTED\tIDLE")
	for _, s := range st.Sessions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%v\t%d\t%s\n", s.Agent, s.ID, s.Corpus, s.Events, s.Plan, s.Injected,
			(time.Duration(s.IdleMS) * time.Millisecond).Round(time.Second))
	}
	tw.Flush()
	return 0
}

// noDaemon is `status --json` when no daemon answers: running false, and
// the start note a detached daemon that did not start left, if any.
type noDaemon struct {
	Running   bool   `json:"running"`
	LastStart string `json:"last_start,omitempty"`
}

// watchState is a corpus's WATCH cell in status: inotify (a watch answers
// an unchanged tree), refused (the kernel refused one: stat instead) or
// stat (no watch asked for, or not yet).
func watchState(c wire.Corpus) string {
	switch {
	case c.Watched:
		return "inotify"
	case c.WatchRefused:
		return "refused"
	}
	return "stat"
}
