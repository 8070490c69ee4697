// Package testenv holds the switches and helpers the test suites share.
//
// The README's test command, go test ./..., must stay fast on a two-core
// machine. Suites that are slow by nature — mutation runs that build and
// run the test binary once per deliberate defect, long soaks, exploratory
// tables — run only when the environment asks for them, and .ci/run asks:
//
//	MEMRECALL_DEEP=1 go test ./...
//
// One name for the whole repository, so a developer who wants everything
// sets one variable and CI cannot forget a package.
package testenv

import (
	"os"
	"testing"
)

// DeepEnv is the environment variable that turns the deep suites on when
// set to 1.
const DeepEnv = "MEMRECALL_DEEP"

// Deep reports whether the deep suites were asked for.
func Deep() bool { return os.Getenv(DeepEnv) == "1" }

// SkipUnlessDeep skips t unless the deep suites were asked for, saying how
// to run it.
func SkipUnlessDeep(t testing.TB) {
	t.Helper()
	if !Deep() {
		t.Skip("deep suite: set " + DeepEnv + "=1 to run it (.ci/run does)")
	}
}
