package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/memrecall/memrecall/memory"
)

// errNoRoot: no memory root to read was found.
var errNoRoot = errors.New("no memory to read")

// checkRoots makes a root that cannot be read an error rather than an
// empty listing (spec §11.1): a root that is a file, or that cannot be
// inspected, is an error; a root that does not exist is an error unless
// the other root exists, and then it is read as absent, with a why line.
// The library itself counts a missing root as a root_missing skip; on the
// command line the user named it, so silence would hide a typo.
//
// With allowMissing (an agent's own locations, which exist only once the
// agent has saved something), a missing root is not an error.
func checkRoots(r memory.Roots, allowMissing bool) (memory.Roots, []string, error) {
	type root struct {
		name string
		dir  *string
	}
	var missing []root
	present := 0
	for _, x := range []root{{"project", &r.Project}, {"user", &r.User}} {
		if *x.dir == "" {
			continue
		}
		fi, err := os.Stat(*x.dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = append(missing, x)
		case err != nil:
			return r, nil, fmt.Errorf("%s memory %s: %w", x.name, *x.dir, err)
		case !fi.IsDir():
			return r, nil, fmt.Errorf("%s memory %s is a file, not a directory", x.name, *x.dir)
		default:
			present++
		}
	}
	if allowMissing {
		return r, nil, nil
	}
	switch {
	case present == 0 && len(missing) == 2:
		return r, nil, fmt.Errorf("%w: neither %s nor %s exists", errNoRoot, r.Project, r.User)
	case present == 0 && len(missing) == 1:
		return r, nil, fmt.Errorf("%w: %s memory %s does not exist", errNoRoot, missing[0].name, *missing[0].dir)
	case present == 0:
		return r, nil, fmt.Errorf("%w: no --project or --user directory", errNoRoot)
	}
	var why []string
	for _, x := range missing {
		why = append(why, fmt.Sprintf("%s: %s does not exist; read as absent", x.name, *x.dir))
		*x.dir = ""
	}
	return r, why, nil
}

// resolveRoots is dirFlags.roots followed by checkRoots.
func (d *dirFlags) resolveRoots() (memory.Roots, []string, error) {
	roots, why, err := d.roots()
	if err != nil {
		return roots, why, err
	}
	checked, more, err := checkRoots(roots, d.agent != "" || d.qwen)
	if err != nil && d.agent == "" && !d.qwen && d.project == "" && d.user == "" {
		err = fmt.Errorf("%w (the example tree is read from the repository root; give --project, --user or --agent)", err)
	}
	return checked, append(why, more...), err
}
