//go:build !unix

package hook

import (
	"errors"
	"os"
)

// errNoUnixSockets: the hook's socket client is Unix-only, as the daemon
// is (it refuses every peer where it cannot read a peer's credentials).
var errNoUnixSockets = errors.New("hook: no Unix socket client on this system")

// dial fails: there is no daemon to talk to here, and the hook fails open.
func dial(string) (*os.File, error) { return nil, errNoUnixSockets }
