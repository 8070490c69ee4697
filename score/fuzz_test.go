package score

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// FuzzTokens: the tokenizer never panics, every token is valid UTF-8, and
// every token is either a whole run of 3+ word characters, a bigram of two
// CJK code points, a bigram or trigram of Thai-like clusters, or a
// joined name (snake_case, kebab-case, dotted: see isJoiner).
// Tokens are substrings of the normalised text.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"", "deploy the app", "サーバー", "ｻｰﾊﾞｰ", "ＤＥＰＬＯＹ", "ﬁle", "abc漢字", "部",
		"เซิร์ฟเวอร์", "ΒΆΣΗΣ", "الخادم", "cafe\u0301", "\xff\xfe", "İstanbul", "a\u0308\u0301",
		"eta-predictor-cg", "kill.dispatch.writes", "a-_b", "x--y..z", "Kurier-App", "v1.2.", "-a-",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		for _, tok := range Tokens(s) {
			if !utf8.ValidString(tok) {
				t.Fatalf("token %q is not valid UTF-8", tok)
			}
			if strings.ContainsAny(tok, "_-.") {
				// A joined name: word runs joined by single joiners.
				for part := range strings.FieldsFuncSeq(tok, func(r rune) bool { return r < utf8.RuneSelf && isJoiner(byte(r)) }) {
					if part == "" {
						t.Fatalf("joined name %q has an empty part", tok)
					}
					for _, r := range part {
						if classify(r) != classWord {
							t.Fatalf("joined name %q holds %U", tok, r)
						}
					}
				}
				continue
			}
			first, _ := utf8.DecodeRuneInString(tok)
			class := classify(first)
			for _, r := range tok {
				if classify(r) != class {
					t.Fatalf("token %q mixes classes (%U)", tok, r)
				}
			}
			switch class {
			case classWord:
				if n := utf8.RuneCountInString(tok); n < minWordRunes {
					t.Fatalf("whole token %q has %d runes", tok, n)
				}
			case classCJK:
				if n := utf8.RuneCountInString(tok); n != 2 {
					t.Fatalf("CJK token %q has %d runes, want a bigram", tok, n)
				}
			case classSEA:
				clusters := 0
				for i := 0; i < len(tok); i = nextCluster(tok, i) {
					clusters++
				}
				if clusters != 2 && clusters != 3 {
					t.Fatalf("token %q has %d clusters, want a bigram or trigram", tok, clusters)
				}
			default:
				t.Fatalf("token %q of separators", tok)
			}
			if !strings.Contains(n, tok) {
				t.Fatalf("token %q is not part of the normalised text", tok)
			}
		}
	})
}

// FuzzRankIndexEqualsNaive: on arbitrary text, indexed and directly scored
// ranking agree with the naive reference and never panic.
func FuzzRankIndexEqualsNaive(f *testing.F) {
	f.Add("deploy the server", "Deploy checklist", "how we deploy", "deploying servers", "mcp__x__y")
	f.Add("サーバー 部署", "ｻｰﾊﾞｰ", "部署手順", "abc漢字", "")
	f.Add("ประชุมลูกค้า", "งบประมาณ", "เซิร์ฟเวอร์", "กาแฟ", "")
	f.Add("using logs", "logging", "used", "create_issue usage", "create_issue")
	f.Add("eta-predictor-cg 消费组", "eta-predictor-cg", "kill.dispatch.writes", "eta predictor cg", "")
	// A usage title after a tool's full name, a recent tool's own name in
	// the query, and type words ("release", "freeze") a note holds.
	f.Add("post_message thread_ts during the release freeze", "mcp__slack__post_message usage", "release freeze", "post_message takes thread_ts", "mcp__slack__post_message")
	// Usage marker and tool name across the end of the body window.
	f.Add("issue", "x", "", strings.Repeat("lorem ", 199)+"tool usage create_issue", "create_issue")
	f.Fuzz(func(t *testing.T, query, title, desc, body, tool string) {
		docs := []*memory.Document{
			{Type: memory.TypeProject, Title: title, Description: desc, Body: body},
			{Type: memory.TypeUser, Title: body, Description: title, Body: desc},
		}
		q := NewQuery(query, []string{tool})
		_, want := RankNaive(q, docs)
		for _, cold := range []int{0, defaultColdAfter} {
			ix := NewIndex()
			ix.coldAfter = cold
			_, got := ix.Rank(q, docs)
			if len(got) != len(want) {
				t.Fatalf("coldAfter %d: %d matches, naive %d", cold, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("coldAfter %d: match %d is %+v, naive %+v", cold, i, got[i], want[i])
				}
			}
		}
	})
}
