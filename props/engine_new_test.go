//go:build !memrecall_mutant

package props

import "github.com/memrecall/memrecall/recall"

// newSuiteEngine returns the engine under test: the real one. With the
// memrecall_mutant build tag, engine_new_mutant_test.go returns one with
// a deliberate defect instead.
func newSuiteEngine(opts recall.Options) (*recall.Engine, error) { return recall.New(opts), nil }
