package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memrecall/memrecall/agent"
)

// runInstall is `memrecall install --agent X` (and, with remove set,
// `memrecall uninstall --agent X`): it merges memrecall's hook entries
// into the agent's user settings file, or takes them out. The file is
// backed up first; a file that cannot be parsed is left alone.
func runInstall(args []string, stdout, stderr io.Writer, remove bool) int {
	name := "install"
	if remove {
		name = "uninstall"
	}
	flags := flag.NewFlagSet(name, flag.ContinueOnError)
	flags.SetOutput(stderr)
	agentFlag := flags.String("agent", "", "the agent: claude, gemini or qwen")
	dryRun := flags.Bool("dry-run", false, "show the change, write nothing")
	settings := flags.String("settings", "", "the settings file (default: the agent's user settings file)")
	binary := flags.String("binary", "", "the binary the hook runs (default: memrecall-hook next to this binary, else this one)")
	if code, ok := parseFlags(flags, args, stderr); !ok {
		return code
	}
	a, err := agent.ParseName(*agentFlag)
	if err != nil {
		fmt.Fprintf(stderr, "%s: --agent: %v\n", name, err)
		return 2
	}
	path := *settings
	if path == "" {
		env, err := agent.OSEnv()
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v (use --settings)\n", name, err)
			return 1
		}
		path = agent.SettingsFile(a, env)
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	exe := *binary
	if exe == "" {
		if exe, err = os.Executable(); err == nil {
			exe, err = filepath.Abs(exe)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: cannot find this binary: %v\n", name, err)
			return 1
		}
		// The hook-only binary, when installed next to this one, costs
		// each hook event less (docs/hooks.md).
		if h := filepath.Join(filepath.Dir(exe), "memrecall-hook"); isFile(h) {
			exe = h
		}
	}
	var updated []byte
	if remove {
		updated, err = agent.UninstallHooks(a, old, agent.HookCommand(exe, a))
	} else {
		updated, err = agent.InstallHooks(a, old, agent.HookCommand(exe, a))
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s: %v (file left unchanged)\n", name, path, err)
		if errors.Is(err, agent.ErrSettingsComments) && !remove {
			if snip, serr := agent.HooksSnippet(a, agent.HookCommand(exe, a)); serr == nil {
				fmt.Fprintf(stderr, "Merge these entries into its \"hooks\" object yourself:\n%s", snip)
			}
		}
		return 1
	}
	if agent.SameSettings(old, updated) {
		fmt.Fprintf(stdout, "%s: nothing to change\n", path)
		return 0
	}
	if *dryRun {
		fmt.Fprintf(stdout, "--- %s\n+++ %s (after %s)\n", path, path, name)
		writeLineDiff(stdout, string(old), string(updated))
		return 0
	}
	if err := replaceFile(path, old, updated); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %sed memrecall hooks for %s", path, name, a)
	if len(old) > 0 {
		fmt.Fprintf(stdout, " (backup: %s)", backupPath(path))
	}
	fmt.Fprintln(stdout)
	if !remove && a == agent.Qwen && qwenOwnRecallOn(updated) {
		fmt.Fprint(stdout, qwenNote)
	}
	return 0
}

// qwenNote tells a Qwen Code user that its own recall still delivers:
// the one switch that stops it also stops Qwen Code writing memory, so
// the choice is theirs (docs/decisions/0724-qwen-own-recall.md).
const qwenNote = `note: Qwen Code's own recall is still on, so a memory can reach the model twice
(its "## Relevant memory" and memrecall's "# Saved memories"). The only switch,
"memory": {"enableManagedAutoMemory": false}, also stops Qwen Code saving memories,
so it is left as it is. See docs/hosts.md.
`

// qwenOwnRecallOn reports whether Qwen Code settings leave its managed
// auto-memory, and with it its recall, on: unless the user settings set
// memory.enableManagedAutoMemory to false (the default is on).
func qwenOwnRecallOn(settings []byte) bool {
	var s struct {
		Memory struct {
			Enable *bool `json:"enableManagedAutoMemory"`
		} `json:"memory"`
	}
	if json.Unmarshal(settings, &s) != nil || s.Memory.Enable == nil {
		return true
	}
	return *s.Memory.Enable
}

func backupPath(path string) string { return path + ".memrecall-backup" }

// replaceFile backs up the old contents (if any), then writes the new
// ones through a temporary file and a rename, keeping the file's mode
// (0600 for a new file: settings may hold secrets).
func replaceFile(path string, old, updated []byte) error {
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
		if err := os.WriteFile(backupPath(path), old, mode); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".settings-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(updated); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// writeLineDiff prints a minimal line diff of a and b (longest common
// subsequence; settings files are small), "-" and "+" for changed lines
// and two spaces for kept ones.
func writeLineDiff(w io.Writer, a, b string) {
	x, y := splitLines(a), splitLines(b)
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			fmt.Fprintf(w, "  %s\n", x[i])
			i++
			j++
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(w, "+ %s\n", y[j])
			j++
		default:
			fmt.Fprintf(w, "- %s\n", x[i])
			i++
		}
	}
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
