package fakemodel

import (
	"context"
	"regexp"
	"strings"
	"time"
)

// ToolCall is a scripted tool call: the tool's name as the agent offers it
// (Claude Code "Bash", Qwen Code and Gemini CLI "run_shell_command") and its
// arguments.
type ToolCall struct {
	Name  string
	Input map[string]any
}

// Script is what a fake model answers in one test.
type Script struct {
	// Tool, when set, is called once: in answer to a request that offers a
	// tool of that name and whose conversation holds no tool result yet.
	Tool *ToolCall
	// ToolDelay holds the answer that carries the tool call this long, as a
	// model that thinks before it calls a tool: a selector started at the
	// prompt then answers before the tool result goes back.
	ToolDelay time.Duration
	// OnToolCall, when set, is called as the fake decides to answer with
	// the tool call, before ToolDelay: the moment between the first
	// request and the tool result (to kill a daemon mid-turn, say). It
	// must not block.
	OnToolCall func()
	// Final is the text of every other answer. Default "Done.".
	Final string
	// Select picks the documents a recall selector request gets back, from
	// the candidate names the request lists. Nil selects nothing.
	Select func(candidates []string) []string
	// SelectDelay holds a selector answer this long (the "selector answers
	// after 2 s" case).
	SelectDelay time.Duration
}

func (s Script) final() string {
	if s.Final == "" {
		return "Done."
	}
	return s.Final
}

// toolCall runs the OnToolCall callback and waits ToolDelay; it reports
// whether the delay elapsed.
func (s Script) toolCall(ctx context.Context) bool {
	if s.OnToolCall != nil {
		s.OnToolCall()
	}
	return sleep(ctx, s.ToolDelay)
}

func (s Script) choose(candidates []string) []string {
	if s.Select == nil {
		return []string{}
	}
	out := s.Select(candidates)
	if out == nil {
		out = []string{}
	}
	return out
}

// SelectByName returns a Select function that picks, in the order given,
// every candidate whose last path element (or whole name) is one of names.
// Candidates may be bare file names, relative paths or manifest keys such
// as "project/deploy-checklist.md".
func SelectByName(names ...string) func([]string) []string {
	return func(candidates []string) []string {
		var out []string
		for _, n := range names {
			for _, c := range candidates {
				base := c
				if i := strings.LastIndexAny(c, `/\`); i >= 0 {
					base = c[i+1:]
				}
				if base == n || c == n {
					out = append(out, c)
					break
				}
			}
		}
		return out
	}
}

// manifestLine matches one line of memrecall's selector manifest:
// "- [type] <key> (<time>): <description>".
var manifestLine = regexp.MustCompile(`(?m)^- \[[^\]]*\] (\S+) \(`)

// mdFileName matches a Markdown file name or path inside free text, as a
// recall selector prompt lists its candidates.
var mdFileName = regexp.MustCompile("[A-Za-z0-9_./\\-\u0080-\uffff]+\\.md\\b")

// candidateNames lists the candidates a selector prompt offers: the keys of
// memrecall's manifest lines when there are any, else every distinct
// Markdown file name in the text, MEMORY.md excluded.
func candidateNames(prompt string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range manifestLine.FindAllStringSubmatch(prompt, -1) {
		add(m[1])
	}
	if len(out) > 0 {
		return out
	}
	for _, m := range mdFileName.FindAllString(prompt, -1) {
		if strings.HasSuffix(m, "MEMORY.md") {
			continue
		}
		add(m)
	}
	return out
}
