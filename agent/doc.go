// Package agent knows the coding agents memrecall plugs into: Claude Code,
// Gemini CLI and Qwen Code.
//
// It names them (Name, ParseName) and finds where each keeps its memory
// for a working directory (Locate), from the same rules the agents apply:
// a user's home, environment variables and settings files. Every decision
// Locate takes is returned as a readable line (Roots.Why), so a command can
// show the user which rule chose each directory.
//
// The package is pure apart from the reads it is handed through Env, and
// imports nothing that builds tables at start-up: the hook client links it
// and its cost is the process spawn.
package agent
