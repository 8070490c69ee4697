// Package telemetry holds the two privacy-safe event kinds memrecall emits —
// selection and delivery — their low-cardinality enums, the Sink interface
// they are written to, a log/slog sink and a recording sink for tests.
//
// Privacy is by construction, not by policy: every field of Selection and
// Delivery is an enum, a count or a duration. There is no string, slice,
// map, pointer or interface field, so no query text, query hash, memory
// content, title, path, session or message identifier, model reasoning or
// error text can be put into an event even by mistake. A test walks the
// types with reflection and fails if such a field is ever added.
//
// The lifecycle core (package fsm) decides which events happen; the engine
// (package recall) sends them to the host's Sink.
package telemetry
