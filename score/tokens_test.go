package score

import (
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
		{"digits are word characters", "error 404 in v1.2", []string{"error", "404"}},
		{"punctuation splits", "owner/ownership-rules_v2", []string{"owner", "ownership", "rules"}},
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
		{"thai cluster bigrams", "เซิร์ฟเวอร์", []string{"เซิร์", "ร์ฟ", "ฟเว", "เวอ", "อร์"}},
		{"thai leading and closing vowels", "กาแฟ", []string{"กาแฟ"}},
		{"thai digits split", "ไทย๑๒๓", []string{"ไทย", "๑๒๓"}},
		{"lao", "ລາວ", []string{"ລາວ"}},
		{"lao three clusters", "ເຊີບເວີ", []string{"ເຊີບ", "ບເວີ"}},
		{"khmer", "ខ្មែរ", []string{"ខ្មែ", "មែរ"}},
		{"myanmar", "မြန်", []string{"မြန်"}},
		{"single thai cluster gives nothing", "กี่", nil},
		{"thai next to latin", "apiเซิร์ฟ", []string{"api", "เซิร์", "ร์ฟ"}},
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
