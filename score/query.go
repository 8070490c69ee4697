package score

import "github.com/memrecall/memrecall/memory"

// MaxQueryTokens bounds the distinct tokens of a query. A long prompt keeps
// both edges: what the user asks first and what they ask last.
const MaxQueryTokens = 64

// MaxRecentTools bounds the recent tool names the noise filter considers.
const MaxRecentTools = 20

// Query is a prepared query: normalised, deduplicated, bounded tokens, the
// type boost each memory type earns from them, and the aliases of the tools
// the agent used recently. The zero Query is empty and matches nothing.
// A Query is immutable and safe to share between goroutines.
type Query struct {
	tokens  []string
	boost   [len(memory.Types) + 1]int // indexed by memory.Type
	aliases []string
}

// NewQuery prepares text and the names of recently used tools (most recent
// first; only the first MaxRecentTools distinct names count). Function
// words ("the", "what", "для") are dropped; the other tokens are
// deduplicated in order of first appearance; past MaxQueryTokens the first
// and last MaxQueryTokens/2 distinct tokens are kept.
func NewQuery(text string, recentTools []string) Query {
	var q Query
	q.tokens = boundTokens(dedupe(dropStopwords(Tokens(text))))
	for _, t := range memory.Types {
		q.boost[t] = typeBoost(t, q.tokens)
	}
	q.aliases = toolAliases(recentTools)
	return q
}

// Tokens returns the query's tokens. The slice is shared; do not modify it.
func (q Query) Tokens() []string { return q.tokens }

// Empty reports that the query has no token, so nothing can match it.
func (q Query) Empty() bool { return len(q.tokens) == 0 }

// ToolAliases returns the names under which the recent tools are looked for
// in documents. The slice is shared; do not modify it.
func (q Query) ToolAliases() []string { return q.aliases }

// typeBoostFor returns the boost a matching document of type t earns.
func (q Query) typeBoostFor(t memory.Type) int {
	if int(t) < len(q.boost) {
		return q.boost[t]
	}
	return 0
}

// dropStopwords removes function words in place.
func dropStopwords(toks []string) []string {
	out := toks[:0]
	for _, t := range toks {
		if !isStopword(t) {
			out = append(out, t)
		}
	}
	return out
}

// dedupe removes repeats in place, keeping first appearances in order.
func dedupe(toks []string) []string {
	seen := make(map[string]struct{}, len(toks))
	out := toks[:0]
	for _, t := range toks {
		if _, ok := seen[t]; ok {
			continue
		}
		seen[t] = struct{}{}
		out = append(out, t)
	}
	return out
}

// boundTokens keeps the first and last MaxQueryTokens/2 of distinct tokens.
func boundTokens(toks []string) []string {
	if len(toks) <= MaxQueryTokens {
		return toks
	}
	half := MaxQueryTokens / 2
	out := make([]string, 0, MaxQueryTokens)
	out = append(out, toks[:half]...)
	return append(out, toks[len(toks)-half:]...)
}
