// Package agent knows the coding agents memrecall plugs into: Claude Code,
// Gemini CLI and Qwen Code.
//
// It names them (Name, ParseName) and finds where each keeps its memory
// for a working directory (Locate), from the same rules the agents apply:
// a user's home, environment variables and settings files. Every decision
// Locate takes is returned as a readable line (Roots.Why), so a command can
// show the user which rule chose each directory.
//
// It also speaks each agent's hook protocol: Parse reads one hook event
// (the JSON an agent writes to its command hook's stdin) and maps it to
// the recall lifecycle operation it stands for (Op: a query, a tool
// result, the end of a turn, a reset, …); Answer renders what the hook
// prints back, and only at the two points where context is wanted;
// PromptBudget is each agent's byte budget for that context. InstallHooks
// and UninstallHooks merge memrecall's entries into an agent's settings
// file. See docs/decisions/0710-hook-events.md and 0713-install.md.
//
// The package is pure apart from the reads it is handed through Env, and
// imports nothing that builds tables at start-up. (The hook client itself
// links even less: package hook forwards the raw event to the daemon,
// which parses it here.)
package agent
