// Package speccheck holds the test that keeps the repository's references
// to docs/spec.md honest: every "spec §N" or "spec §N.M" in the Go sources,
// the Markdown documents and the command line's help must name a numbered
// heading of docs/spec.md. It has no code of its own.
package speccheck
