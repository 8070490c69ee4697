package legacy

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/memrecall/memrecall/memory"
)

func doc(name string, typ memory.Type, title, desc, body string) *memory.Document {
	return &memory.Document{ID: memory.ID("/m/" + name), RelPath: name, Type: typ,
		Title: title, Description: desc, Body: body, Modified: time.Unix(0, 0)}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Deploy the DB at 5pm, deploy!", []string{"deploy", "the", "5pm"}},
		{"café сервер サーバー", []string{"caf"}},
		{"ＤＥＰＬＯＹ", nil},
		{"owner_ship-rules", []string{"owner", "ship", "rules"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Tokens(tt.in), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Tokens(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestScore(t *testing.T) {
	tests := []struct {
		name  string
		query string
		doc   *memory.Document
		want  int
	}{
		{"token in title, body bonus", "deploy", doc("a", memory.TypeProject, "Deploy", "", "steps"), 3},
		{"substring anywhere", "owner", doc("a", memory.TypeProject, "", "", "ownership"), 3},
		{"empty body gets no bonus", "deploy", doc("a", memory.TypeProject, "Deploy", "", ""), 2},
		{"type name is searched", "reference", doc("a", memory.TypeReference, "x", "", ""), 3},
		{"type keyword alone scores", "preference", doc("a", memory.TypeUser, "Coffee", "", "tea"), 2},
		{"no hit, body alone gives nothing", "kubernetes", doc("a", memory.TypeUser, "Coffee", "", "tea"), 0},
		{"non-ascii query finds nothing", "サーバー", doc("a", memory.TypeReference, "サーバー", "", "x"), 0},
		{"repeated token counts once", "deploy deploy", doc("a", memory.TypeProject, "deploy", "", ""), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Score(Tokens(tt.query), tt.doc); got != tt.want {
				t.Errorf("Score = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestRankTiesByType(t *testing.T) {
	docs := []*memory.Document{
		doc("u", memory.TypeUser, "editor", "", ""),
		doc("r", memory.TypeReference, "editor", "", ""),
		doc("f", memory.TypeFeedback, "editor", "", ""),
		doc("none", memory.TypeProject, "coffee", "", ""),
		doc("best", memory.TypeUser, "editor", "", "body"),
	}
	var got []string
	for _, m := range Rank("editor", docs) {
		got = append(got, m.Doc.RelPath)
	}
	want := []string{"best", "f", "r", "u"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Rank order (-want +got):\n%s", diff)
	}
}
