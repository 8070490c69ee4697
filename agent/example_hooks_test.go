package agent_test

import (
	"fmt"

	"github.com/memrecall/memrecall/agent"
)

// A Gemini CLI BeforeAgent event is a query; the hook answers it with the
// context recall chose. AfterAgent ends the turn and is never answered.
func ExampleParse() {
	ev, err := agent.Parse(agent.Gemini, []byte(`{"session_id":"g1","cwd":"/src/app","hook_event_name":"BeforeAgent","prompt":"how do we deploy?"}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(ev.Op, ev.SessionID, ev.Prompt)
	fmt.Printf("%s", agent.Answer(ev, "# Saved memories\n..."))

	end, _ := agent.Parse(agent.Gemini, []byte(`{"session_id":"g1","hook_event_name":"AfterAgent"}`))
	fmt.Println(end.Op, agent.Answer(end, "anything") == nil)
	// Output:
	// query g1 how do we deploy?
	// {"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"# Saved memories\n..."}}
	// end true
}

// Installing adds one hook group per event memrecall answers and keeps
// everything else in the settings file.
func ExampleInstallHooks() {
	out, err := agent.InstallHooks(agent.Qwen, []byte(`{"theme": "dark"}`), agent.HookCommand("/usr/local/bin/memrecall", agent.Qwen))
	if err != nil {
		panic(err)
	}
	fmt.Println(agent.HookEvents(agent.Qwen))
	fmt.Println(len(out) > 0, agent.SameSettings(out, out))
	// Output:
	// [SessionStart UserPromptSubmit PostToolBatch Stop SessionEnd]
	// true true
}
