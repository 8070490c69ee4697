package score

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memrecall/memrecall/memory"
)

// wholeRunTokens is the reference design's treatment of Thai, Lao, Khmer
// and Myanmar: a whole run between separators is one token. It is kept
// here only to measure what bigrams change.
func wholeRunTokens(text string) []string {
	var out []string
	forEachToken(Normalize(text), func(tok string) { out = append(out, tok) })
	// Re-join adjacent SEA bigrams back into their run.
	var runs []string
	for _, f := range strings.FieldsFunc(Normalize(text), func(r rune) bool { return classify(r) != classSEA }) {
		if utf8.RuneCountInString(f) >= minWordRunes {
			runs = append(runs, f)
		}
	}
	var kept []string
	for _, t := range out {
		if r, _ := utf8.DecodeRuneInString(t); classify(r) != classSEA {
			kept = append(kept, t)
		}
	}
	return append(kept, runs...)
}

func scoreWith(tokens func(string) []string, query string, d *memory.Document) int {
	qs := tokens(query)
	fields := [][]string{tokens(d.Title), tokens(d.Description), tokens(BodyWindow(d.Body))}
	weights := []int{TitleWeight, DescriptionWeight, BodyWeight}
	score := 0
	for _, q := range dedupe(qs) {
		for i, f := range fields {
			for _, ft := range f {
				if Matches(q, ft) {
					score += weights[i]
					break
				}
			}
		}
	}
	return score
}

// TestSEASegmentationEffect measures, on a small Thai corpus, what code-point
// bigrams gain over whole-run tokens: Thai writes no spaces between words,
// so a question never repeats a title's run exactly. The figures are logged
// (go test -run SEA -v) and recorded in docs/decisions/0201-tokens.md.
func TestSEASegmentationEffect(t *testing.T) {
	bTop, bFalse := measureSEA(t, Tokens)
	wTop, wFalse := measureSEA(t, wholeRunTokens)
	t.Logf("cluster bigrams: top-1 %d/5, non-relevant documents scored %d", bTop, bFalse)
	t.Logf("whole runs: top-1 %d/5, non-relevant documents scored %d", wTop, wFalse)
	if bTop != 5 {
		t.Errorf("bigrams find the right document for %d of 5 queries, want 5", bTop)
	}
	if wTop >= bTop {
		t.Errorf("whole runs do as well as bigrams (%d vs %d): the comparison shows nothing", wTop, bTop)
	}
}

// measureSEA scores the Thai and Lao mini corpus with tokens.
func measureSEA(t *testing.T, tokens func(string) []string) (top1, falseHits int) {
	t.Helper()
	docs := []*memory.Document{
		doc("server", memory.TypeReference, "การตั้งค่าเซิร์ฟเวอร์", "ขั้นตอนรีสตาร์ทเซิร์ฟเวอร์", "", 0),
		doc("password", memory.TypeReference, "รหัสผ่านฐานข้อมูล", "เก็บไว้ในตู้นิรภัย", "", 0),
		doc("deadline", memory.TypeProject, "กำหนดส่งโครงการ", "ส่งงานวันศุกร์", "", 0),
		doc("language", memory.TypeUser, "ภาษาที่ผู้ใช้ชอบ", "ผู้ใช้ชอบภาษาโก", "", 0),
		doc("lao", memory.TypeReference, "ເຊີບເວີ", "ການຕັ້ງຄ່າເຊີບເວີ", "", 0),
	}
	cases := []struct{ query, top string }{
		{"เซิร์ฟเวอร์ล่มต้องทำอย่างไร", "server"},
		{"ลืมรหัสผ่านฐานข้อมูล", "password"},
		{"กำหนดส่งเมื่อไหร่", "deadline"},
		{"ผู้ใช้ชอบภาษาอะไร", "language"},
		{"ຕັ້ງຄ່າເຊີບເວີແນວໃດ", "lao"},
		{"อากาศวันนี้", ""}, // weather today: nothing is relevant
	}
	for _, c := range cases {
		best, bestScore := "", 0
		for _, d := range docs {
			s := scoreWith(tokens, c.query, d)
			if s > bestScore {
				best, bestScore = strings.TrimSuffix(d.RelPath, ".md"), s
			}
			if s > 0 && strings.TrimSuffix(d.RelPath, ".md") != c.top {
				falseHits++
			}
		}
		if c.top != "" && best == c.top {
			top1++
		}
	}
	return top1, falseHits
}
