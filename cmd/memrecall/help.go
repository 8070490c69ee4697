package main

import (
	"flag"
	"fmt"
	"strings"
)

// help is the synopsis and description that -h prints for the subcommands
// that do not set a Usage of their own (scan, query, eval and graph write
// theirs next to their flags and have no entry here).
var help = map[string]struct{ synopsis, description string }{
	"hook": {"memrecall hook --agent claude|gemini|qwen [--no-start] < event.json",
		"Answers one hook event of the agent, read from standard input, through the\n" +
			"per-user recall daemon (started if none runs, unless --no-start), and prints\n" +
			"the agent's answer. It fails open: on any error it prints nothing and exits 0."},
	"daemon": {"memrecall daemon [--idle DURATION] [--detached] | memrecall daemon --stop",
		"Runs the per-user recall daemon in the foreground, logging to stderr (never a\n" +
			"prompt, a memory or a path). --stop asks the running daemon to exit."},
	"install": {"memrecall install --agent claude|gemini|qwen [--dry-run] [--settings FILE] [--binary PATH]",
		"Adds memrecall's hooks to the agent's user settings file, after a backup;\n" +
			"a settings file that cannot be parsed is left alone."},
	"uninstall": {"memrecall uninstall --agent claude|gemini|qwen [--dry-run] [--settings FILE]",
		"Takes memrecall's hooks out of the agent's user settings file, after a backup."},
	"status": {"memrecall status [--json]",
		"Shows what the running daemon holds: its sessions (hashed), memory corpora,\n" +
			"and latencies, in counts, hashes and durations only. Exits 1 when no daemon runs."},
}

// setHelp gives fs the usage text of its entry in help, if any.
func setHelp(fs *flag.FlagSet) {
	h, ok := help[strings.TrimPrefix(fs.Name(), "memrecall ")]
	if !ok {
		return
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s\n\n%s\n\nflags:\n", h.synopsis, h.description)
		fs.PrintDefaults()
	}
}
