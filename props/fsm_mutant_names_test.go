package props

// fsmMutantNames lists fsm's mutants (fsm.Mutants in a memrecall_mutant
// build); TestFSMMutantNames checks the two agree.
func fsmMutantNames() []string {
	return []string{
		"discard_counts_docs",
		"initial_twice",
		"no_exclusion",
		"no_fast_cap",
		"no_selection_cap",
		"no_stale_check",
		"reset_keeps_surfaced",
		"terminal_reopens",
	}
}

// fsmMutantEnv names the fsm mutant a memrecall_mutant build of the suite
// runs against; empty means the correct session.
const fsmMutantEnv = "MEMRECALL_FSM_MUTANT"

// fsmInvariantsOnlyEnv, set to 1, turns off the comparison with the model
// so that only the model-free invariants can fail.
const fsmInvariantsOnlyEnv = "MEMRECALL_FSM_INVARIANTS_ONLY"
