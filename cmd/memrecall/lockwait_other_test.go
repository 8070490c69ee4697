//go:build !unix

package main

import (
	"testing"
	"time"
)

// waitLockFree cannot look at the lock here: it gives a stopped daemon a
// second to shut down.
func waitLockFree(testing.TB, string) { time.Sleep(time.Second) }
