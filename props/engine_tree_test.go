package props

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
	"github.com/memrecall/memrecall/score"
)

// engineVocab is the query vocabulary: invented words, so the scorer's
// stopwords and stems leave them alone and each matches exactly the
// documents that carry it. Each word is in two or three of the ten
// documents, so a query matches a few of them and leaves the rest for the
// selector's answers: a document delivered to the wrong plan is usually
// one that plan could not have been given, which is what makes leakage
// visible.
var engineVocab = []string{
	"quorvex", "blentic", "frandor", "mipsule", "trovank", "zelquin",
	"vostrel", "plinkar", "dramesh", "ulquist", "sarnoth", "kelvane",
}

// engineTree is a real memory tree on disk for the engine suite: ten
// documents in both scopes, each carrying three vocabulary words and a random
// marker string that must never reach telemetry.
type engineTree struct {
	root, project, user string
	docs                []*memory.Document // as the real scan parses them
	byID                map[memory.ID]*memory.Document
	keys                []string // manifest keys of docs, same order
	markers             []string // every marker in the tree
}

const engineTreeDocs = 10

// randomMarker returns a string of 12 random lower-case letters: one token
// that matches nothing else.
func randomMarker(r *rand.Rand) string {
	var b strings.Builder
	for range 12 {
		b.WriteByte(byte('a' + r.IntN(26)))
	}
	return b.String()
}

func newEngineTree(t *testing.T, r *rand.Rand) *engineTree {
	t.Helper()
	root := t.TempDir()
	tr := &engineTree{root: root, project: filepath.Join(root, "project"), user: filepath.Join(root, "user"), byID: map[memory.ID]*memory.Document{}}
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for i := range engineTreeDocs {
		dir, rel := tr.project, fmt.Sprintf("note-%d.md", i)
		if i >= 7 {
			dir = tr.user
		}
		if i%4 == 3 {
			rel = filepath.Join("sub", rel)
		}
		marker := randomMarker(r)
		tr.markers = append(tr.markers, marker)
		text := fmt.Sprintf("---\ntype: %s\nname: %s %s note\ndescription: about %s\n---\nBody %s with %s.\n",
			[]string{"user", "feedback", "project", "reference"}[i%4],
			engineVocab[i%12], marker, engineVocab[(i+3)%12], marker, engineVocab[(i+7)%12])
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * 24 * time.Hour)
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	res, err := memory.Scan(context.Background(), memory.Roots{Project: tr.project, User: tr.user})
	if err != nil || len(res.Docs) != engineTreeDocs {
		t.Fatalf("scan of the suite's tree: %d documents, %v, skipped %v", len(res.Docs), err, res.Skipped)
	}
	tr.docs = res.Docs
	for _, d := range tr.docs {
		tr.byID[d.ID] = d
		tr.keys = append(tr.keys, model.ManifestKey(d))
	}
	return tr
}

// ranking is the lexical ranking of text over the whole tree, by the
// scorer's naive reference (the engine uses the index or the same naive
// ranking; they are proven identical in score/).
func (tr *engineTree) ranking(text string) []memory.ID {
	_, ranked := score.RankNaive(score.NewQuery(text, nil), tr.docs)
	out := make([]memory.ID, len(ranked))
	for i, m := range ranked {
		out[i] = m.Doc.ID
	}
	return out
}

// keyID maps a manifest key to its document, if the tree has it.
func (tr *engineTree) keyID(key string) (memory.ID, bool) {
	for i, k := range tr.keys {
		if k == key {
			return tr.docs[i].ID, true
		}
	}
	return "", false
}
