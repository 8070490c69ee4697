//go:build !unix

package memory

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this platform") }
