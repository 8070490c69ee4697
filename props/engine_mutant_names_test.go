package props

// engineMutantNames lists the engine's mutants (recall.Mutants in a
// memrecall_mutant build); TestEngineMutantNames checks the two agree.
func engineMutantNames() []string {
	return []string{"extra_doc", "ignore_ceiling", "repeat_fast", "stale_settle"}
}

// engineMutantEnv names the engine mutant a memrecall_mutant build of the
// suite runs against; empty means the correct engine.
const engineMutantEnv = "MEMRECALL_ENGINE_MUTANT"
