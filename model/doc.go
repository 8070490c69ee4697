// Package model is the second recall stage: a side query to a language model
// that picks up to five memory documents from a bounded manifest.
//
// The pieces, in the order the engine uses them:
//
//   - BuildManifest packs the engine's candidates (up to 200, ranked) into a
//     Manifest of at most MaxManifestBytes, one line per document. Each line
//     names its document by a short key, "<scope>/<relpath>", that the
//     Manifest maps back to the document's ID. Only manifest documents are
//     valid answers.
//   - A Selector receives a Request (query, manifest, recent tools, limit) and
//     returns manifest keys. Hosts implement it or pick an adapter: OpenAI for
//     any OpenAI-compatible chat-completions endpoint, Scripted, Delayed and
//     SelectorFunc for tests and evaluation.
//   - Settle runs a Selector under the SelectorTimeout ceiling, validates its
//     answer and applies the policy of spec §4.5: a valid answer is the model's
//     choice, an empty answer selects nothing, an error or the ceiling falls
//     back to the lexical top five, and a cancelled caller gets nothing. The
//     resulting Outcome carries a Strategy and an ErrorKind that are safe for
//     telemetry; the raw error stays in Outcome.Err for the host's debugging.
//
// The package imports only memory/ of this module and holds no package-level
// mutable state.
package model
