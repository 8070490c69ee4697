package main

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDisplayWidth(t *testing.T) {
	for s, want := range map[string]int{
		"": 0, "abc": 3, "支付回调": 8, "ｻｰﾊﾞｰ": 5, "ＡＢ": 4, "é": 1, "e\u0301": 1, "커밋": 4, "ทีม": 2,
	} {
		if got := displayWidth(s); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestTableAlignsByDisplayWidth: a column after a CJK cell starts at the
// same terminal column as after an ASCII one.
func TestTableAlignsByDisplayWidth(t *testing.T) {
	var b bytes.Buffer
	writeTable(&b, "  ", []string{"PATH", "TITLE"}, [][]string{{"deploy.md", "Deploy"}, {"支付回调.md", "支付"}, {"x", "y"}})
	want := "" +
		"  PATH         TITLE\n" +
		"  deploy.md    Deploy\n" +
		"  支付回调.md  支付\n" +
		"  x            y\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
}
