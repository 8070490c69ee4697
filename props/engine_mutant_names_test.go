package props

// engineMutantNames lists the engine's mutants (recall.Mutants in a
// memrecall_mutant build); TestEngineMutantNames checks the two agree.
func engineMutantNames() []string {
	return []string{"extra_doc", "ignore_ceiling", "repeat_fast", "stale_settle"}
}
