// Package daemon is the per-user recall daemon behind the memrecall hook.
//
// A hook is a new process for every agent event, but a recall plan lives
// for a whole turn and its refined result arrives seconds after the query,
// so the plans live here. The daemon listens on a unix socket in the
// user's runtime directory (wire.Dir), mode 0600, and refuses peers of
// another uid (SO_PEERCRED). It holds one recall.Corpus per pair of memory
// roots, shared by every session of that project, and one recall.Engine
// (one conversation, one open plan) per (agent, session_id).
//
// The first hook that finds no daemon starts one, detached; a lock file
// keeps it to one instance. It exits after an idle period, and gives way
// to a newer hook's daemon (wire.Version). It never logs or reports a
// prompt, a memory's text or title, or a path: Status holds counts,
// hashes and durations. See docs/decisions/0712-daemon.md.
package daemon
