package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/memrecall/memrecall/agent"
	"github.com/memrecall/memrecall/memory"
)

// The example tree the command runs on by default, relative to the
// current directory (the repository root for `go run ./cmd/memrecall`).
const (
	exampleProjectDir = "examples/memory/project"
	exampleUserDir    = "examples/memory/user"
)

// errAgentConflict: --qwen names an agent, and so does --agent.
var errAgentConflict = errors.New("--qwen is --agent qwen; give only one agent")

// dirFlags are the memory-location flags shared by scan and query.
type dirFlags struct {
	project, user, agent string
	qwen                 bool
}

// addDirFlags registers --project, --user, --agent and --qwen on fs.
func addDirFlags(fs *flag.FlagSet) *dirFlags {
	d := &dirFlags{}
	fs.StringVar(&d.project, "project", "", "project memory `dir` (default "+exampleProjectDir+", or the agent's)")
	fs.StringVar(&d.user, "user", "", "user memory `dir` (default "+exampleUserDir+", or the agent's)")
	fs.StringVar(&d.agent, "agent", "", "read the memory `name` (claude, gemini or qwen) keeps for the current directory")
	fs.BoolVar(&d.qwen, "qwen", false, "same as --agent qwen")
	return d
}

// roots resolves the flags for the current directory and the real
// environment; see resolveDirs.
func (d *dirFlags) roots() (memory.Roots, []string, error) {
	if d.agent == "" && !d.qwen {
		return resolveDirs(d.project, d.user, d.agent, d.qwen, "", agent.Env{})
	}
	env, err := agent.OSEnv()
	if err != nil {
		return memory.Roots{}, nil, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return memory.Roots{}, nil, fmt.Errorf("working directory: %w", err)
	}
	return resolveDirs(d.project, d.user, d.agent, d.qwen, wd, env)
}

// resolveDirs turns the location flags into roots and says why, one line
// per decision. With an agent (--agent, or --qwen) both roots are the
// agent's for cwd (agent.Locate) and an explicit --project or --user
// replaces its half. Without one, no flag means the example tree; giving
// one or both means exactly those (an omitted one is absent).
func resolveDirs(project, user, name string, qwen bool, cwd string, env agent.Env) (memory.Roots, []string, error) {
	if qwen {
		if name != "" && name != string(agent.Qwen) {
			return memory.Roots{}, nil, errAgentConflict
		}
		name = string(agent.Qwen)
	}
	if name == "" {
		if project == "" && user == "" {
			return memory.Roots{Project: exampleProjectDir, User: exampleUserDir},
				[]string{"the example tree (no --agent, --project or --user given)"}, nil
		}
		var why []string
		if project != "" {
			why = append(why, "project: --project")
		}
		if user != "" {
			why = append(why, "user: --user")
		}
		return memory.Roots{Project: project, User: user}, why, nil
	}
	a, err := agent.ParseName(name)
	if err != nil {
		return memory.Roots{}, nil, err
	}
	loc, err := agent.Locate(a, cwd, env)
	if err != nil {
		return memory.Roots{}, nil, err
	}
	why := []string{fmt.Sprintf("%s's memory for %s", a, cwd)}
	why = append(why, loc.Why...)
	if project != "" {
		loc.Project = project
		why = append(why, "project: --project replaces it")
	}
	if user != "" {
		loc.User = user
		why = append(why, "user: --user replaces it")
	}
	return memory.Roots{Project: loc.Project, User: loc.User, PlainProject: loc.PlainNotes}, why, nil
}

// printWhy prints the reasons behind the roots under the roots' lines.
func printWhy(w io.Writer, why []string) {
	for i, line := range why {
		label := "         "
		if i == 0 {
			label = "why:     "
		}
		fmt.Fprintf(w, "%s%s\n", label, line)
	}
}
