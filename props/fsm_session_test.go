//go:build !memrecall_mutant

package props

import (
	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/fsm"
)

// newFSMSession returns the session under test: the real one. With the
// memrecall_mutant build tag, fsm_session_mutant_test.go returns a
// deliberately broken one instead.
func newFSMSession(*rapid.T) *fsm.Session { return fsm.NewSession() }
