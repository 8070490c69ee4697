package score

// Version names what this package makes of a document: its normalisation,
// tokens, keys and scores. Anything persisted that depends on them (the
// engine's snapshot carries it in its header) is trusted only under the
// same Version, so every change that alters a document's tokens or scores
// must increase it.
const Version = 8
