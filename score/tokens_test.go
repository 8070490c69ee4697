package score

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"ascii words, short ones dropped", "Fix the DB deploy at 5pm", []string{"fix", "the", "deploy", "5pm"}},
		{"digits are word characters", "error 404 in v1", []string{"error", "404"}},
		{"punctuation splits", "owner/ownership rules", []string{"owner", "ownership", "rules"}},
		{"joined names", "owner/ownership-rules_v2 in v1.2", []string{"owner", "ownership", "rules", "ownership-rules_v2", "v1.2"}},
		{"kebab-case and dotted names", "eta-predictor-cg and kill.dispatch.writes.", []string{"eta", "predictor",
			"eta-predictor-cg", "and", "kill", "dispatch", "writes", "kill.dispatch.writes"}},
		{"double and edge joiners separate", "x--yy ..z -abc- a.-b", []string{"abc"}},
		{"snake_case identifier", "create_issue", []string{"create", "issue", "create_issue"}},
		{"identifier of short parts", "a_b_c", []string{"a_b_c"}},
		{"double underscores separate", "mcp__github__create_issue", []string{"mcp", "github", "create", "issue", "create_issue"}},
		{"edge underscores", "_private_ x_漢字", []string{"private", "漢字"}},
		{"accented latin", "Préférence Café NAÏVE", []string{"préférence", "café", "naïve"}},
		{"decomposed accent composes", "cafe\u0301", []string{"café"}},
		{"cyrillic", "Сервер базы данных", []string{"сервер", "базы", "данных"}},
		{"greek, final sigma folded", "Ο διακομιστής ΒΑΣΗΣ", []string{"διακομιστήσ", "βασησ"}},
		{"arabic", "خادم قاعدة البيانات", []string{"خادم", "قاعدة", "البيانات"}},
		{"hebrew", "שרת נתונים", []string{"שרת", "נתונים"}},
		{"devanagari with marks", "सर्वर डेटा", []string{"सर्वर", "डेटा"}},
		{"full-width latin", "ＤＥＰＬＯＹ ｆｉｘ", []string{"deploy", "fix"}},
		{"ligatures", "ﬁle ﬂow eﬃcient", []string{"file", "flow", "efficient"}},
		{"katakana with prolonged mark", "サーバー", []string{"サー", "ーバ", "バー"}},
		{"half-width katakana", "ｻｰﾊﾞｰ", []string{"サー", "ーバ", "バー"}},
		{"middle dot stays in run", "コード・レビュー", []string{"コー", "ード", "ド・", "・レ", "レビ", "ビュ", "ュー"}},
		{"han bigrams", "漢字", []string{"漢字"}},
		{"han run", "部署手順", []string{"部署", "署手", "手順"}},
		{"han iteration mark", "時々", []string{"時々"}},
		{"hiragana iteration mark", "いすゞ", []string{"いす", "すゞ"}},
		{"mixed kana and kanji", "設定ファイル", []string{"設定", "定フ", "ファ", "ァイ", "イル"}},
		{"hangul", "서버 배포", []string{"서버", "배포"}},
		{"cjk ends latin run", "abc漢字", []string{"abc", "漢字"}},
		{"latin after cjk", "漢字abc", []string{"漢字", "abc"}},
		{"lone han gives nothing", "部", nil},
		{"lone han between spaces", "the 部 team", []string{"the", "team"}},
		{"lone prolonged mark", "ー", nil},
		{"thai cluster bigrams and trigrams", "เซิร์ฟเวอร์", []string{"เซิร์", "เซิร์ฟ", "ร์ฟ", "ร์ฟเว", "ฟเว", "ฟเวอ", "เวอ", "เวอร์", "อร์"}},
		{"thai leading and closing vowels", "กาแฟ", []string{"กาแฟ"}},
		{"thai digits split", "ไทย๑๒๓", []string{"ไทย", "๑๒๓"}},
		{"lao", "ລາວ", []string{"ລາວ"}},
		{"lao three clusters", "ເຊີບເວີ", []string{"ເຊີບ", "ເຊີບເວີ", "ບເວີ"}},
		{"khmer", "ខ្មែរ", []string{"ខ្មែ", "ខ្មែរ", "មែរ"}},
		{"myanmar", "မြန်", []string{"မြန်"}},
		{"single thai cluster gives nothing", "กี่", nil},
		{"thai next to latin", "apiเซิร์ฟ", []string{"api", "เซิร์", "เซิร์ฟ", "ร์ฟ"}},
		{"invalid utf-8 separates", "abc\xffdef", []string{"abc", "def"}},
		{"empty", "", nil},
		{"emoji and symbols", "🚀 → ★", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tokens(tt.in)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Tokens(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestQueryTokensOfThaiLikeRuns: a query keeps the trigrams of a run of
// three or more clusters, the one bigram of a two-cluster run, nothing of
// a lone cluster; other scripts are tokenised as in fields.
func TestQueryTokensOfThaiLikeRuns(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"เซิร์ฟเวอร์", []string{"เซิร์ฟ", "ร์ฟเว", "ฟเวอ", "เวอร์"}},
		{"ประชุม", []string{"ประชุ", "ระชุม"}},
		{"กาแฟ", []string{"กาแฟ"}},
		{"กี่", nil},
		{"deploy サーバー ເຊີບເວີ", []string{"deploy", "サー", "ーバ", "バー", "ເຊີບເວີ"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, NewQuery(tt.in, nil).Tokens(), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("query tokens of %q (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestQueryTokensOfCJKRuns: a query keeps the bigrams of one script; a
// pair across a change of script (a particle after a noun: ーの, 書の) is
// dropped unless the run has no other pair.
func TestQueryTokensOfCJKRuns(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"サーバーの", []string{"サー", "ーバ", "バー"}},
		{"エレベーターの点検", []string{"エレ", "レベ", "ベー", "ータ", "ター", "点検"}},
		{"証明書の期限切れ", []string{"証明", "明書", "期限", "限切"}},
		{"夜間バッチが失敗したら", []string{"夜間", "バッ", "ッチ", "失敗", "した", "たら"}},
		{"書く", []string{"書く"}},
		{"の点", []string{"の点"}},
		{"部署手順", []string{"部署", "署手", "手順"}},
		{"서버 배포", []string{"서버", "배포"}},
		{"時々", []string{"時々"}},
		{"部", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, NewQuery(tt.in, nil).Tokens(), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("query tokens of %q (-want +got):\n%s", tt.in, diff)
		}
		// Fields keep every bigram, so each query token is one of them.
		for _, q := range NewQuery(tt.in, nil).Tokens() {
			if !slices.Contains(Tokens(tt.in), q) {
				t.Errorf("query token %q of %q is not a field token", q, tt.in)
			}
		}
	}
}
