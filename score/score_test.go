package score

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memrecall/memrecall/memory"
)

func TestScore(t *testing.T) {
	long := strings.Repeat("filler ", memory.BodyWindow/7+1) // past the window
	tests := []struct {
		name  string
		query string
		doc   *memory.Document
		want  float64
	}{
		{"title match is 4", "deploy", doc("a", memory.TypeProject, "Deploy steps", "", "", 0), 4},
		{"description match is 3", "deploy", doc("a", memory.TypeProject, "Steps", "how to deploy", "", 0), 3},
		{"body match is 1", "deploy", doc("a", memory.TypeProject, "Steps", "", "we deploy daily", 0), 1},
		{"all fields add up", "deploy", doc("a", memory.TypeProject, "Deploy", "deploy", "deploy", 0), 8},
		{"each token counts once per field", "deploy deploy", doc("a", memory.TypeProject, "Deploy deploy", "", "", 0), 4},
		{"two tokens", "deploy checklist", doc("a", memory.TypeProject, "Deploy checklist", "", "", 0), 8},
		{"inflection matches", "owner", doc("a", memory.TypeProject, "Owners", "", "", 0), 4},
		{"no substring false hit", "owner", doc("a", memory.TypeProject, "Ownership", "", "", 0), 0},
		{"stopwords never match", "what are the rules", doc("a", memory.TypeProject, "The rules", "what the", "there are", 0), 4},
		{"doubled consonant", "log", doc("a", memory.TypeProject, "Logging conventions", "", "", 0), 4},
		{"silent e", "cache", doc("a", memory.TypeProject, "", "caching layer", "", 0), 3},
		{"no match no score", "kubernetes", doc("a", memory.TypeUser, "Coffee", "", "prefers tea", 0), 0},
		{"type boost needs a match", "preference", doc("a", memory.TypeUser, "Coffee", "", "likes tea", 0), 0},
		{"type boost after a match", "coffee preference", doc("a", memory.TypeUser, "Coffee", "", "", 0), 5},
		{"type boost capped at 2", "coffee preference profile personal habit", doc("a", memory.TypeUser, "Coffee", "", "", 0), 6},
		{"type boost only for its type", "coffee deadline", doc("a", memory.TypeUser, "Coffee", "", "", 0), 4},
		{"project vocabulary", "release deadline", doc("a", memory.TypeProject, "Release", "", "", 0), 6},
		{"body beyond the window weighs half", "kubernetes", doc("a", memory.TypeProject, "x", "", long+"kubernetes", 0), 0.5},
		{"body within the window is scored", "kubernetes", doc("a", memory.TypeProject, "x", "", "kubernetes "+long, 0), 1},
		{"the type name itself is not a field", "reference", doc("a", memory.TypeReference, "Grafana", "", "", 0), 0},
		{"katakana query, half-width doc", "サーバー", doc("a", memory.TypeReference, "ｻｰﾊﾞｰ一覧", "", "", 0), 12},
		{"full-width doc", "deploy", doc("a", memory.TypeProject, "ＤＥＰＬＯＹ", "", "", 0), 4},
		{"ligature doc", "file", doc("a", memory.TypeProject, "ﬁle layout", "", "", 0), 4},
		{"mixed abc漢字", "abc 漢字", doc("a", memory.TypeProject, "abc漢字", "", "", 0), 8},
		{"lone 部 cannot match", "部", doc("a", memory.TypeProject, "部", "部", "部", 0), 0},
		{"chinese bigram", "部署", doc("a", memory.TypeProject, "部署流程", "", "", 0), 4},
		{"korean", "배포", doc("a", memory.TypeProject, "서버 배포 절차", "", "", 0), 4},
		{"cyrillic case ending", "сервер", doc("a", memory.TypeProject, "Настройка сервера", "", "", 0), 4},
		{"arabic article", "خادم", doc("a", memory.TypeProject, "إعداد الخادم", "", "", 0), 4},
		{"greek upper case doc", "βάσης", doc("a", memory.TypeProject, "", "ΒΆΣΗΣ δεδομένων", "", 0), 3},
		{"thai bigrams", "เซิร์ฟเวอร์", doc("a", memory.TypeProject, "ตั้งค่าเซิร์ฟเวอร์", "", "", 0), 4 * 4},
		{"thai shared prefix only", "ประชุม", doc("a", memory.TypeProject, "งบประมาณ", "", "", 0), 0},
		{"thai partial word", "เวอร์", doc("a", memory.TypeProject, "เซิร์ฟเวอร์", "", "", 0), 4 * 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := NewQuery(tt.query, nil)
			if got := fieldScore(q, tt.doc); got != tt.want {
				t.Errorf("fieldScore(%q) = %v, want %v", tt.query, got, tt.want)
			}
			_, ranked := NewIndex().Rank(q, []*memory.Document{tt.doc})
			if (len(ranked) == 1) != (tt.want > 0) {
				t.Errorf("Index.Rank(%q) ranks %d documents, want a match: %v", tt.query, len(ranked), tt.want > 0)
			}
		})
	}
}

func TestRankOrder(t *testing.T) {
	docs := []*memory.Document{
		doc("user-old", memory.TypeUser, "Editor", "", "", 48),
		doc("ref-new", memory.TypeReference, "Editor", "", "", 1),
		doc("feedback-same", memory.TypeFeedback, "Editor", "", "", 1),
		doc("best", memory.TypeProject, "Editor", "editor", "", 100),
		doc("none", memory.TypeProject, "Coffee", "", "", 0),
		doc("user-new", memory.TypeUser, "Editor", "", "", 0),
	}
	want := []string{"best.md", "user-new.md", "ref-new.md", "feedback-same.md", "user-old.md"}
	q := NewQuery("editor", nil)
	for name, rank := range map[string]func(Query, []*memory.Document) ([]*memory.Document, []Match){
		"naive": RankNaive,
		"index": NewIndex().Rank,
	} {
		kept, ranked := rank(q, docs)
		if diff := cmp.Diff(want, ids(ranked)); diff != "" {
			t.Errorf("%s: ranked (-want +got):\n%s", name, diff)
		}
		if len(kept) != len(docs) {
			t.Errorf("%s: kept %d of %d documents without recent tools", name, len(kept), len(docs))
		}
		for _, m := range ranked {
			if docs[m.Pos] != m.Doc {
				t.Errorf("%s: Pos %d does not point at %s", name, m.Pos, m.Doc.RelPath)
			}
		}
	}
}

func TestQueryTokens(t *testing.T) {
	var words []string
	for i := range 100 {
		// The trailing "q" keeps words such as "wxxed" from being inflected
		// forms, whose stem would replace them.
		words = append(words, "w"+strings.Repeat("x", 2)+string(rune('a'+i%26))+string(rune('a'+i/26))+"q")
	}
	text := strings.Join(words, " ") + " " + strings.Join(words[:10], " ")
	got := NewQuery(text, nil).Tokens()
	want := append(append([]string{}, words[:32]...), words[68:]...)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bounded tokens (-want +got):\n%s", diff)
	}
	if got := NewQuery("Deploy the deploy DEPLOY", nil).Tokens(); !cmp.Equal(got, []string{"deploy"}) {
		t.Errorf("dedupe: got %q", got)
	}
	if !NewQuery("a b 部 ?", nil).Empty() || !NewQuery("what is the", nil).Empty() || !(Query{}).Empty() {
		t.Error("a query without tokens must be Empty")
	}
	kept, ranked := NewIndex().Rank(Query{}, []*memory.Document{doc("a", memory.TypeUser, "x", "", "", 0)})
	if len(kept) != 1 || len(ranked) != 0 {
		t.Errorf("zero Query: kept %d ranked %d, want 1 and 0", len(kept), len(ranked))
	}
}

func TestToolAliases(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"mcp__github__create_issue"}, []string{"mcp__github__create_issue", "github__create_issue", "github::create_issue", "create_issue"}},
		{[]string{"jira::search"}, []string{"jira::search", "jira__search", "search"}},
		{[]string{"Read", "read", " "}, []string{"read"}},
		{nil, nil},
	}
	for _, tt := range tests {
		got := NewQuery("x", tt.in).ToolAliases()
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("aliases of %q (-want +got):\n%s", tt.in, diff)
		}
	}
	var many []string
	for i := range 30 {
		many = append(many, "tool"+string(rune('a'+i)))
	}
	if got := NewQuery("x", many).ToolAliases(); len(got) != MaxRecentTools || got[0] != "toola" {
		t.Errorf("bounded aliases = %q, want the first %d", got, MaxRecentTools)
	}
}

func TestNoiseFilter(t *testing.T) {
	usage := "Tool usage: call create_issue with the parameter schema below."
	tests := []struct {
		name  string
		tools []string
		doc   *memory.Document
		noise bool
	}{
		{"usage reference of a recent mcp tool", []string{"mcp__github__create_issue"},
			doc("a", memory.TypeReference, "GitHub issues", "", usage, 0), true},
		{"server::tool alias in the document", []string{"mcp__github__create_issue"},
			doc("a", memory.TypeReference, "x", "api docs for github::create_issue", "", 0), true},
		{"full name in the document, short name recent", []string{"github::create_issue"},
			doc("a", memory.TypeReference, "x", "", "Field mapping for mcp__github__create_issue", 0), true},
		{"marker across punctuation and case", []string{"search"},
			doc("a", memory.TypeReference, "x", "", "SEARCH: API-Docs", 0), true},
		{"durable marker keeps it", []string{"mcp__github__create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+" Gotcha: labels must exist.", 0), false},
		{"durable plural keeps it", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+" Credentials live in vault.", 0), false},
		{"owner keeps it", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+" Ask the owner.", 0), false},
		{"owner as a parameter with its type is not durable", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+" Parameters: owner (string), repo (string).", 0), true},
		{"owner as a schema key is not durable", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+"\n- owner: string\n- repo: string", 0), true},
		{"owner in code is not durable", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+" Pass `owner` and `repo`.", 0), true},
		{"owner in an identifier is not durable", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+" Set repo_owner and owner_id.", 0), true},
		{"a marker inside a word is not durable", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+" See prewarning_flags.", 0), true},
		{"a prose heading is durable", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", usage+" Known issues: labels must exist.", 0), false},
		{"a title ending in ': usage'", []string{"mcp__sentry__get_issue_details"},
			doc("a", memory.TypeReference, "Sentry MCP get_issue_details: usage", "", "Tool: mcp__sentry__get_issue_details.", 0), true},
		{"a title ending in '– usage'", []string{"get_issue_details"},
			doc("a", memory.TypeReference, "get_issue_details – usage.", "", "get_issue_details returns the stack.", 0), true},
		{"a title that only ends in the word usage", []string{"get_issue_details"},
			doc("a", memory.TypeReference, "Redis memory usage", "", "get_issue_details showed it.", 0), false},
		{"a title ending in a tool's full name and usage", []string{"mcp__slack__post_message"},
			doc("a", memory.TypeReference, "mcp__slack__post_message usage", "", "mcp__slack__post_message needs a channel id.", 0), true},
		{"a title ending in a Rust-style tool path and usage", []string{"gh::api"},
			doc("a", memory.TypeReference, "gh::api usage", "", "gh::api takes a path.", 0), true},
		{"a title ending in a snake_case word and usage", []string{"cpu_time"},
			doc("a", memory.TypeReference, "cpu_time usage", "", "cpu_time doubled.", 0), false},
		{"a title ending in one word usage", []string{"mcp__x__cpu"},
			doc("a", memory.TypeReference, "mcp__x__cpu_usage", "", "mcp__x__cpu dropped.", 0), false},
		{"a usage title keeps a durable lesson", []string{"get_issue_details"},
			doc("a", memory.TypeReference, "Sentry: usage", "", "get_issue_details. Workaround: retry twice.", 0), false},
		{"described as how to call the tool", []string{"mcp__sentry__get_issue_details"},
			doc("a", memory.TypeReference, "Sentry issues", "How to call mcp__sentry__get_issue_details and what it returns", "", 0), true},
		{"how to call, across punctuation like the other markers", []string{"search_issues"},
			doc("a", memory.TypeReference, "x", "", "How-to: call search_issues with a query.", 0), true},
		{"call alone is not a usage marker", []string{"search_issues"},
			doc("a", memory.TypeReference, "x", "", "We call search_issues nightly.", 0), false},
		{"tool not recent", []string{"mcp__jira__search"},
			doc("a", memory.TypeReference, "x", "", usage, 0), false},
		{"no usage marker", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "", "create_issue is how we file bugs", 0), false},
		{"no recent tools", nil, doc("a", memory.TypeReference, "x", "", usage, 0), false},
		{"tool name inside a longer name is not a mention", []string{"issue"},
			doc("a", memory.TypeReference, "x", "", usage, 0), false},
		{"short tool name inside a word is not a mention", []string{"ls"},
			doc("a", memory.TypeReference, "x", "", "Tool usage of tools", 0), false},
		{"mention beyond the window counts", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "tool usage", strings.Repeat("z ", memory.BodyWindow)+"create_issue", 0), true},
		{"mention beyond what the scan keeps does not count", []string{"create_issue"},
			doc("a", memory.TypeReference, "x", "tool usage", strings.Repeat("z ", memory.ReadLimit)+"create_issue", 0), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := NewQuery("issue", tt.tools)
			if got := IsNoise(tt.doc, q); got != tt.noise {
				t.Errorf("IsNoise = %v, want %v", got, tt.noise)
			}
			for name, rank := range map[string]func(Query, []*memory.Document) ([]*memory.Document, []Match){
				"naive": RankNaive, "index": NewIndex().Rank,
			} {
				kept, _ := rank(q, []*memory.Document{tt.doc})
				if (len(kept) == 0) != tt.noise {
					t.Errorf("%s: kept %d documents, noise=%v", name, len(kept), tt.noise)
				}
			}
		})
	}
}

// TestTypeBoostByKeys: looking a token's readings up in the vocabulary
// counts exactly the tokens that are a vocabulary word or one inflected.
func TestTypeBoostByKeys(t *testing.T) {
	tokens := []string{"preferences", "deadlines", "docs", "lessons", "preferring", "the", "release", "runbooks", "проекта", "links"}
	for _, typ := range memory.Types {
		for _, q := range tokens {
			want := 0
			for _, w := range typeVocabulary(typ) {
				if inflects(w, q) {
					want = 1
					break
				}
			}
			if got := typeBoost(typ, []string{q}); got != want {
				t.Errorf("typeBoost(%v, %q) = %d, want %d", typ, q, got, want)
			}
		}
	}
}
