package daemon

import (
	"fmt"
	"net"
	"path/filepath"
	"time"

	"github.com/memrecall/memrecall/daemon/wire"
)

// Ask sends one request to the daemon of dir and returns its answer,
// within timeout. The command line uses it for status and --stop.
func Ask(dir string, req wire.Request, timeout time.Duration) (wire.Response, error) {
	deadline := time.Now().Add(timeout)
	c, err := net.DialTimeout("unix", filepath.Join(dir, wire.SocketName), timeout)
	if err != nil {
		return wire.Response{}, fmt.Errorf("daemon: no daemon: %w", err)
	}
	defer c.Close()
	return wire.Exchange(c, req, deadline)
}
