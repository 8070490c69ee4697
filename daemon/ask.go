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
	c, err := net.DialTimeout("unix", filepath.Join(dir, wire.SocketName), timeout)
	if err != nil {
		return wire.Response{}, fmt.Errorf("daemon: no daemon: %w", err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	if err := wire.Write(c, req); err != nil {
		return wire.Response{}, err
	}
	var resp wire.Response
	if err := wire.Read(c, wire.MaxResponseBytes, &resp); err != nil {
		return wire.Response{}, err
	}
	return resp, nil
}
