package score

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTokens: the tokenizer never panics, every token is valid UTF-8, and
// every token is either a whole run of 3+ runes or a bigram of two runes.
// Tokens are substrings of the normalised text.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{
		"", "deploy the app", "サーバー", "ｻｰﾊﾞｰ", "ＤＥＰＬＯＹ", "ﬁle", "abc漢字", "部",
		"เซิร์ฟเวอร์", "ΒΆΣΗΣ", "الخادم", "cafe\u0301", "\xff\xfe", "İstanbul", "a\u0308\u0301",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		for _, tok := range Tokens(s) {
			if !utf8.ValidString(tok) {
				t.Fatalf("token %q is not valid UTF-8", tok)
			}
			runes := utf8.RuneCountInString(tok)
			if runes < 2 {
				t.Fatalf("token %q has %d rune(s)", tok, runes)
			}
			if runes == 2 {
				// A two-rune token is a bigram of a CJK or Thai-like run,
				// never a short word.
				for _, r := range tok {
					if c := classify(r); c != classCJK && c != classSEA {
						t.Fatalf("two-rune token %q holds %U of class %d", tok, r, c)
					}
				}
			} else {
				for _, r := range tok {
					if classify(r) != classWord {
						t.Fatalf("whole token %q holds %U of class %d", tok, r, classify(r))
					}
				}
			}
			if !strings.Contains(n, tok) {
				t.Fatalf("token %q is not part of the normalised text", tok)
			}
		}
	})
}
