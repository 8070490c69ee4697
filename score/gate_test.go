package score

import (
	"math/bits"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memrecall/memrecall/memory"
	"pgregory.net/rapid"
)

// TestKnownShareGate: a query is answered only when more than a third of
// its content tokens are matched by some kept document, whichever document
// that is; type-vocabulary words count on neither side.
func TestKnownShareGate(t *testing.T) {
	docs := []*memory.Document{
		doc("migrations", memory.TypeFeedback, "Migration rules", "rollback plan for every schema change", "", 1),
		doc("redis", memory.TypeProject, "Redis eviction", "postmortem of the cache outage", "", 2),
		doc("cache-zh", memory.TypeProject, "缓存复盘", "redis", "", 3),
		doc("coffee", memory.TypeUser, "Coffee", "oat milk, no sugar", "", 4),
		doc("usage", memory.TypeReference, "Tool usage: deploy_tool", "api docs", "kubernetes helm chart", 5),
	}
	tool := []string{"deploy_tool"}
	tests := []struct {
		name, query string
		tools       []string
		want        []string
	}{
		// The usage note is removed by the noise filter while deploy_tool
		// is in use, so it does not count as knowing its words.
		{"one known word of four", "kubernetes helm chart rollback", tool, nil},
		{"one known word of three", "terraform helm rollback", tool, nil},
		{"one or two tokens: any match", "helm rollback", tool, []string{"migrations.md"}},
		{"known across documents", "redis eviction postmortem", tool, []string{"redis.md", "cache-zh.md"}},
		{"type words left out", "coffee preference profile personal habit", tool, []string{"coffee.md"}},
		{"only type words", "preferences profile", tool, nil},
		{"kept documents count", "kubernetes helm chart rollback", nil, []string{"migrations.md", "usage.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := NewQuery(tt.query, tt.tools)
			_, naive := RankNaive(q, docs)
			ix := NewIndex()
			_, indexed := ix.Rank(q, docs)
			cold := NewIndex()
			cold.coldAfter = 0
			_, direct := cold.Rank(q, docs)
			for name, got := range map[string][]Match{"naive": naive, "index": indexed, "direct": direct} {
				if diff := cmp.Diff(tt.want, ids(got), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s %q (-want +got):\n%s", name, tt.query, diff)
				}
			}
		})
	}
}

// TestKnownShareGateUnsegmented: in CJK and Thai-like queries the gate
// weighs the characters that matched n-grams cover, not the n-grams, most
// of which straddle word boundaries; a query whose real words the memory
// knows opens, one that shares only a junk n-gram stays shut.
func TestKnownShareGateUnsegmented(t *testing.T) {
	tests := []struct {
		name, query string
		docs        []*memory.Document
		want        []string
	}{
		{
			// 审校 and 翻译 are two of six bigrams (a third: shut when
			// n-grams were counted) but four of seven characters.
			name:  "chinese: two real words of a sentence",
			query: "谁负责审校翻译",
			docs: []*memory.Document{
				doc("review", memory.TypeProject, "文档流程", "翻译由小王审校", "", 1),
				doc("coffee", memory.TypeUser, "咖啡", "燕麦奶", "", 2),
			},
			want: []string{"review.md"},
		},
		{
			name:  "chinese: one word of four",
			query: "谁负责审校翻译",
			docs: []*memory.Document{
				doc("glossary", memory.TypeReference, "术语表", "机器翻译", "", 1),
			},
		},
		{
			// 签名 and 密钥 are found apart (名密 is not): two of six
			// tokens, but four of five characters next to two unknown
			// words.
			name:  "mixed: the CJK words known, the English ones not",
			query: "Stripe webhook 的签名密钥",
			docs: []*memory.Document{
				doc("keys", memory.TypeReference, "支付", "密钥和签名的轮换", "", 1),
			},
			want: []string{"keys.md"},
		},
		{
			name:  "mixed: only one English word known",
			query: "Stripe webhook 的签名密钥",
			docs: []*memory.Document{
				doc("hooks", memory.TypeReference, "Webhook retries", "exponential backoff", "", 1),
			},
		},
		{
			name:  "mixed: English words and one CJK word known",
			query: "Stripe webhook 的签名密钥",
			docs: []*memory.Document{
				doc("hooks", memory.TypeReference, "Stripe webhook retries", "", "", 1),
				doc("keys", memory.TypeReference, "密钥轮换", "", "", 2),
			},
			want: []string{"hooks.md", "keys.md"},
		},
		{
			// ター is a junk bigram: the ending of another loanword.
			name:  "japanese: one junk bigram",
			query: "エレベーターの点検",
			docs: []*memory.Document{
				doc("monitor", memory.TypeProject, "サーバーのモニター", "", "", 1),
			},
		},
		{
			// ータ and ター both match センター; with ー counted as part of
			// the kana before it they cover ベー and ター, two of six.
			name:  "japanese: a shared loanword ending",
			query: "エレベーターの点検",
			docs: []*memory.Document{
				doc("dc", memory.TypeProject, "データセンター", "", "", 1),
			},
		},
		{
			name:  "japanese: the words known in different notes",
			query: "エレベーターの点検",
			docs: []*memory.Document{
				doc("elevator", memory.TypeProject, "エレベーター", "", "", 1),
				doc("audit", memory.TypeProject, "毎月の点検", "", "", 2),
			},
			want: []string{"elevator.md", "audit.md"},
		},
		{
			// สำรอง (backup) and รายวัน (daily) are known apart: four
			// of sixteen trigrams, eight of eighteen clusters.
			name:  "thai: two real words of a sentence",
			query: "ใครดูแลการสำรองข้อมูลรายวัน",
			docs: []*memory.Document{
				doc("backup", memory.TypeProject, "ไฟล์สำรอง", "ตรวจรายวัน", "", 1),
			},
			want: []string{"backup.md"},
		},
		{
			// การสำรวจ (survey) shares the trigrams การสำ and รสำร
			// across the boundary of การ and สำรอง.
			name:  "thai: junk trigrams across a word boundary",
			query: "ใครดูแลการสำรองข้อมูลรายวัน",
			docs: []*memory.Document{
				doc("survey", memory.TypeProject, "การสำรวจ", "", "", 1),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := NewQuery(tt.query, nil)
			_, naive := RankNaive(q, tt.docs)
			ix := NewIndex()
			_, indexed := ix.Rank(q, tt.docs)
			cold := NewIndex()
			cold.coldAfter = 0
			_, direct := cold.Rank(q, tt.docs)
			for name, got := range map[string][]Match{"naive": naive, "index": indexed, "direct": direct} {
				if diff := cmp.Diff(tt.want, ids(got), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s %q (-want +got):\n%s", name, tt.query, diff)
				}
			}
			// Every case matches something: the gate decides.
			scored := 0
			for _, d := range tt.docs {
				scored += ScoreNaive(q, d)
			}
			if scored == 0 {
				t.Errorf("no document matches %q: the case does not test the gate", tt.query)
			}
		})
	}
}

// TestGateWeights pins the units: the known and total weight of a query
// when the tokens listed are matched.
func TestGateWeights(t *testing.T) {
	tests := []struct {
		query        string
		matched      []string
		known, total int
	}{
		// Words weigh two each.
		{"kubernetes helm chart rollback", []string{"rollback"}, 2, 8},
		{"redis eviction postmortem", []string{"eviction", "postmortem"}, 4, 6},
		// A type word counts on neither side.
		{"coffee preference profile", []string{"coffee"}, 2, 2},
		// Characters weigh one, covered by any matched bigram over them.
		{"谁负责审校翻译", []string{"审校", "翻译"}, 4, 7},
		{"谁负责审校翻译", []string{"负责", "责审", "审校"}, 4, 7},
		// A repeated run counts once.
		{"审校 审校", []string{"审校"}, 2, 2},
		{"Stripe webhook 的签名密钥", []string{"签名", "密钥"}, 4, 9},
		// の pairs with nothing in a one-script query and weighs nothing;
		// ー belongs to the kana before it.
		{"エレベーターの点検", []string{"ター"}, 1, 6},
		{"エレベーターの点検", []string{"ータ"}, 2, 6},
		{"エレベーターの点検", []string{"点検"}, 2, 6},
		// Clusters of Thai: กา ร สำ ร อ ง from two trigrams.
		{"การสำรอง", []string{"การสำ", "รอง"}, 6, 6},
		{"การสำรอง", []string{"รอง"}, 3, 6},
	}
	for _, tt := range tests {
		q := NewQuery(tt.query, nil)
		var found uint64
		for _, m := range tt.matched {
			i, ok := q.position(Normalize(m))
			if !ok {
				t.Fatalf("%q has no token %q: %q", tt.query, m, q.tokens)
			}
			found |= 1 << i
		}
		known, total := q.knownWeight(found)
		if known != tt.known || total != tt.total {
			t.Errorf("%q with %q known: %d of %d, want %d of %d", tt.query, tt.matched, known, total, tt.known, tt.total)
		}
		if got, want := q.answers(found), 3*tt.known > tt.total; got != want {
			t.Errorf("%q with %q known: answers = %v, want %v", tt.query, tt.matched, got, want)
		}
	}
}

// TestPropGateUnits: a query without CJK or Thai-like text is gated by
// its share of content words, as before characters were weighed; and
// when anyOpens is set (the index's short cut) every match of a content
// token opens the gate.
func TestPropGateUnits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := queryGen().Draw(t, "query")
		found := rapid.Uint64().Draw(t, "found")
		if len(q.tokens) < 64 {
			found &= 1<<len(q.tokens) - 1
		}
		unsegmented := false
		for _, tok := range q.tokens {
			r, _ := utf8.DecodeRuneInString(tok)
			unsegmented = unsegmented || classify(r) == classCJK || classify(r) == classSEA
		}
		content := ^q.vocabulary & (1<<len(q.tokens) - 1)
		if !unsegmented {
			want := 3*bits.OnesCount64(found&content) > bits.OnesCount64(content) || content == 0
			if got := q.answers(found); got != want {
				t.Fatalf("%q with %b known: answers = %v, want %v", q.tokens, found, got, want)
			}
		}
		if q.anyOpens && found&content != 0 && !q.answers(found) {
			t.Fatalf("%q: anyOpens, but %b known does not answer", q.tokens, found)
		}
	})
}
