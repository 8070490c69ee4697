package score

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memrecall/memrecall/memory"
	"pgregory.net/rapid"
)

// TestFold: per script, what folding removes and what it keeps.
func TestFold(t *testing.T) {
	tests := []struct{ script, in, want string }{
		{"ascii", "deploy", "deploy"},
		{"latin accents", "café", "cafe"},
		{"latin combining", "cafe\u0301", "cafe"},
		{"latin several", "größe", "grosse"},
		{"polish ł", "łódź", "lodz"},
		{"danish ø", "søren", "soren"},
		{"croatian đ", "đakovo", "dakovo"},
		{"turkish dotless ı", "kırmızı", "kirmizi"},
		{"turkish dotted i after Normalize", Normalize("İstanbul"), "istanbul"},
		{"german ß", "straße", "strasse"},
		{"icelandic ð", "borð", "bord"},
		{"vietnamese tones", "tiếng việt", "tieng viet"},
		{"greek tonos", "βάσης", "βασης"},
		{"greek dialytika", "προϊόν", "προιον"},
		{"cyrillic ё", "ёлка", "елка"},
		{"arabic harakat", "كَتَبَ", "كتب"},
		{"arabic shadda and sukun", "مُدَرِّسْ", "مدرس"},
		{"arabic tatweel", "خـــادم", "خادم"},
		{"arabic alef hamza above", "أحمد", "احمد"},
		{"arabic alef hamza below", "إعداد", "اعداد"},
		{"arabic alef madda", "آخر", "اخر"},
		{"arabic alef wasla", "ٱلكتاب", "الكتاب"},
		{"arabic waw hamza", "مؤتمر", "موتمر"},
		{"arabic yeh hamza", "مسائل", "مسايل"},
		{"arabic alef maqsura", "مستوى", "مستوي"},
		{"hebrew niqqud", "שָׁלוֹם", "שלום"},
		{"hebrew plain", "שלום", "שלום"},
		{"devanagari keeps its vowel signs", "हिंदी", "हिंदी"},
		{"thai keeps its marks", "เซิร์ฟเวอร์", "เซิร์ฟเวอร์"},
		{"cjk unchanged", "サーバー", "サーバー"},
	}
	for _, tt := range tests {
		if got := fold(tt.in); got != tt.want {
			t.Errorf("%s: fold(%q) = %q, want %q", tt.script, tt.in, got, tt.want)
		}
	}
}

// TestFoldedMatches: a query typed without marks finds the marked word and
// the reverse, in each script, and an exact match outranks a folded one.
func TestFoldedMatches(t *testing.T) {
	tests := []struct {
		query, field string
		want         int
	}{
		{"cafe", "café", 1}, {"café", "cafe", 1}, {"café", "café", 2}, {"cafes", "cafés", 1},
		{"lodz", "Łódź", 1}, {"strasse", "Straße", 1}, {"malmo", "Malmö", 1},
		{"kirmizi", "kırmızı", 1}, {"tieng", "tiếng", 1},
		{"βασης", "βάσης", 1}, {"ΒΑΣΗΣ", "βάσης", 1},
		{"احمد", "أحمد", 1}, {"كتب", "كَتَبَ", 1}, {"الخادم", "ٱلخادم", 1},
		{"שלום", "שָׁלוֹם", 1},
		{"cafe", "coffee", 0}, {"deploy", "deploy", 2},
		// German transliteration (0219): ü is ue as well as u, both ways.
		{"mueller", "Müller", 1}, {"Müller", "Mueller", 1}, {"muller", "Müller", 1},
		{"Müller", "Muller", 1}, {"Müller", "MÜLLER", 2}, {"luedenscheidt", "Lüdenscheidt", 1},
		{"schoen", "schön", 1}, {"aerger", "Ärger", 1}, {"Muellers", "Müller", 1},
		{"mueller", "muller", 0},
	}
	for _, tt := range tests {
		if got := MatchLevel(tt.query, tt.field); got != tt.want {
			t.Errorf("MatchLevel(%q, %q) = %d, want %d", tt.query, tt.field, got, tt.want)
		}
	}
	exact := doc("exact", memory.TypeProject, "Café opening hours", "", "", 0)
	foldedDoc := doc("folded", memory.TypeProject, "Cafe opening hours", "", "", 0)
	for _, rank := range []func(Query, []*memory.Document) ([]*memory.Document, []Match){RankNaive, NewIndex().Rank} {
		_, ranked := rank(NewQuery("café hours", nil), []*memory.Document{foldedDoc, exact})
		if diff := cmp.Diff([]string{"exact.md", "folded.md"}, ids(ranked)); diff != "" {
			t.Errorf("exact match does not outrank the folded one (-want +got):\n%s", diff)
		}
	}
}

// TestPropFold: folding is idempotent, and an exact match never scores
// below the same text matched through its folded form, unless the query
// holds a word without its marks whose marked form the document holds
// ("muller" beside "Müller", which the fragments give since 0219): such
// a query matches the folded copy exactly and the marked original only
// through folding, and ranks the copy first by design.
func TestPropFold(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := textGen(4).Draw(t, "text")
		for _, tok := range Tokens(text) {
			if f := fold(tok); fold(f) != f {
				t.Fatalf("fold not idempotent on %q: %q then %q", tok, f, fold(f))
			}
		}
		d := docGen().Draw(t, "doc")
		if rapid.Bool().Draw(t, "holdsQuery") {
			d.Body += " " + text // random fragments rarely share a marked word
		}
		fd := *d
		fd.Title, fd.Description, fd.Body = foldText(d.Title), foldText(d.Description), foldText(d.Body)
		q := NewQuery(text, nil)
		if exact, viaFold := fieldScore(q, d), fieldScore(q, &fd); exact < viaFold && sameTokens(d, &fd) && !unmarkedTwin(q, d) {
			t.Fatalf("query %q: exact document scores %v, its folded copy %v", q.Tokens(), exact, viaFold)
		}
	})
}

// unmarkedTwin reports that a query word is its own fold and the fold of
// a different word of d: the query names the marked word without its
// marks.
func unmarkedTwin(q Query, d *memory.Document) bool {
	words := Tokens(d.Title + " " + d.Description + " " + d.Body)
	for _, t := range q.Tokens() {
		if fold(t) != t {
			continue
		}
		for _, w := range words {
			if w != t && fold(w) == t {
				return true
			}
		}
	}
	return false
}

// foldText folds every word of text, leaving the rest.
func foldText(s string) string {
	n := Normalize(s)
	out := []byte{}
	for i := 0; i < len(n); {
		c, size := classAt(n, i)
		if c != classWord {
			out = append(out, n[i:i+size]...)
			i += size
			continue
		}
		j := i
		for j < len(n) {
			c, size := classAt(n, j)
			if c != classWord {
				break
			}
			j += size
		}
		out = append(out, fold(n[i:j])...)
		i = j
	}
	return string(out)
}

// sameTokens reports that folding did not merge or split tokens of the
// document (ß → ss keeps a token; a fold that changes which runs are
// words would compare different texts).
func sameTokens(a, b *memory.Document) bool {
	return len(Tokens(a.Title+" "+a.Description+" "+a.Body)) == len(Tokens(b.Title+" "+b.Description+" "+b.Body))
}

// TestNameAnswers: a long question in another language around one rare
// name (a ticket key, an identifier) is answered by the note that holds
// the name, though the note holds little of the question's evidence; a
// name that many notes hold, a plain shared word, the name of a tool
// the agent has just used (docs/decisions/0211-silent-tools.md) or an
// abbreviation of single letters ("e.g.") answers nothing.
func TestNameAnswers(t *testing.T) {
	docs := []*memory.Document{
		doc("pay", memory.TypeProject, "PAY-1432 double refund", "postmortem", "Refunds were sent twice.", 0),
		doc("db", memory.TypeProject, "Database reset", "how to reset the replica", "Run the reset script.", 1),
		doc("flag", memory.TypeReference, "Feature flags", "", "ledger.async_posting is at 20 %.", 2),
		doc("other", memory.TypeUser, "Coffee", "", "Prefers tea.", 3),
		doc("lesson", memory.TypeFeedback, "Chat lesson", "", "A test run of post_message flooded #general; test in #bots.", 4),
		doc("lunch", memory.TypeUser, "Lunch", "", "Likes Italian food, e.g. pizza, i.e. nothing spicy.", 5),
		doc("sugar", memory.TypeUser, "Diet", "", "Long-term I want to eat less sugar.", 6),
	}
	slackParams := "wie setze ich bei post_message den Parameter für Antworten im Thread?"
	tests := []struct {
		query string
		tools []string
		want  []string
	}{
		{"Kannst du mir bitte noch einmal zusammenfassen, was bei PAY-1432 eigentlich schiefgelaufen ist und ob wir einen Regressionstest dafür haben?", nil, []string{"pay.md"}},
		{"ledger.async_posting 플래그를 지금 끄면 위험한가요? 현재 몇 퍼센트까지 적용됐는지도 알려주세요", nil, []string{"flag.md"}},
		{"how do I factory reset my home wifi router after the firmware upgrade bricked it", nil, nil},
		{slackParams, nil, []string{"lesson.md"}},
		{slackParams, []string{"mcp__slack__post_message"}, nil},
		{slackParams, []string{"mcp__jira__search"}, []string{"lesson.md"}},
		// An abbreviation is no name, though it is joined and rare.
		{"e.g. how do we rotate the kafka certificates", nil, nil},
		{"i.e. which vault path holds the signing keys", nil, nil},
		// Nor is a hyphenated pair of common words, though the memory
		// holds it once.
		{"what is our long-term plan for the kafka migration", nil, nil},
	}
	for _, tt := range tests {
		for name, rank := range map[string]func(Query, []*memory.Document) ([]*memory.Document, []Match){
			"naive": RankNaive, "index": NewIndex().Rank,
		} {
			_, ranked := rank(NewQuery(tt.query, tt.tools), docs)
			got := ids(ranked)
			if len(got) > 1 {
				got = got[:1]
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: %q, tools %q (-want +got):\n%s", name, tt.query, tt.tools, diff)
			}
		}
	}
}

// TestPassage: a ranked document whose only body match is past the window
// is marked FarOnly by both rankings and gives the line that holds it; one
// that matches in its window, or a title with nothing past the window,
// gives nothing. A match through folding or a silent-e key counts.
func TestPassage(t *testing.T) {
	filler := strings.Repeat("Nothing to see in this paragraph of notes.\n", 70) // ≈ 3,000 characters
	line := "The pgbouncer pool size is 40 per replica; the café triage rota."
	far := &memory.Document{RelPath: "far.md", Title: "Database", Body: filler + line + "\nMore filler.\n"}
	near := &memory.Document{RelPath: "near.md", Title: "Pools", Body: "pgbouncer and café triage first\n" + filler + line + "\n"}
	titled := &memory.Document{RelPath: "titled.md", Title: "pgbouncer", Body: "short"}
	docs := []*memory.Document{far, near, titled}
	for name, rank := range map[string]func(Query, []*memory.Document) ([]*memory.Document, []Match){
		"index": NewIndex().Rank, "naive": RankNaive,
	} {
		for _, query := range []string{"pgbouncer pool", "cafe", "triaging"} {
			q := NewQuery(query, nil)
			_, ranked := rank(q, docs)
			got := map[string]string{}
			for _, m := range ranked {
				start, end, ok := Passage(q, m)
				if ok != m.FarOnly {
					t.Errorf("%s %q: %s FarOnly %v, Passage %v", name, query, m.Doc.RelPath, m.FarOnly, ok)
				}
				if ok {
					got[m.Doc.RelPath] = m.Doc.Body[start:end]
				}
			}
			if diff := cmp.Diff(map[string]string{"far.md": line}, got); diff != "" {
				t.Errorf("%s %q: passages (-want +got):\n%s", name, query, diff)
			}
		}
		_, ranked := rank(NewQuery("kubernetes", nil), docs)
		if len(ranked) != 0 {
			t.Errorf("%s: kubernetes ranked %v", name, ids(ranked))
		}
	}
	if _, _, ok := Passage(NewQuery("pgbouncer", nil), Match{Doc: far}); ok {
		t.Error("a match not marked FarOnly gives a passage")
	}
}
