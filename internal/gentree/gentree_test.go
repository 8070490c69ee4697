package gentree

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/memrecall/memrecall/memory"
)

// TestTopicsParseInEveryLanguage: every language's topics are valid topic
// files whose text is in the language's script, and the output is a pure
// function of the seed.
func TestTopicsParseInEveryLanguage(t *testing.T) {
	scripts := map[Lang]*unicode.RangeTable{
		Chinese: unicode.Han, Japanese: unicode.Katakana, Korean: unicode.Hangul,
		Thai: unicode.Thai, Cyrillic: unicode.Cyrillic, Mixed: unicode.Han, English: unicode.Latin,
	}
	for _, lang := range Langs {
		g, err := New(lang)
		if err != nil {
			t.Fatal(err)
		}
		a := g.Topic(rand.New(rand.NewPCG(1, 1)), 3)
		b := g.Topic(rand.New(rand.NewPCG(1, 1)), 3)
		if a != b {
			t.Errorf("%s: same seed, different topics", lang)
		}
		p, err := memory.Parse([]byte(a))
		if err != nil {
			t.Fatalf("%s: %v\n%s", lang, err, a)
		}
		if p.Type != memory.TypeReference || p.Body == "" || p.Title == "" || p.Description == "" {
			t.Errorf("%s: parsed %+v", lang, p)
		}
		if !strings.ContainsFunc(p.Body, func(r rune) bool { return unicode.Is(scripts[lang], r) }) {
			t.Errorf("%s: body has no %s text: %q", lang, lang, p.Body)
		}
		if q := g.Query(); q == "" {
			t.Errorf("%s: empty query", lang)
		}
	}
	if _, err := ParseLang("xx"); !errors.Is(err, ErrLang) {
		t.Errorf("ParseLang(xx) = %v, want ErrLang", err)
	}
}

func TestWrite(t *testing.T) {
	root := t.TempDir()
	project, user, bytes, err := Write(root, Japanese, 25)
	if err != nil {
		t.Fatal(err)
	}
	res, err := memory.Scan(t.Context(), memory.Roots{Project: project, User: user})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Docs) != 25 || res.Skipped.Total() != 0 {
		t.Errorf("scanned %d documents, skipped %v; want 25, none", len(res.Docs), res.Skipped)
	}
	var sum int64
	filepath.Walk(root, func(_ string, fi os.FileInfo, _ error) error {
		if fi != nil && fi.Mode().IsRegular() {
			sum += fi.Size()
		}
		return nil
	})
	if sum != bytes {
		t.Errorf("Write reported %d bytes, the files hold %d", bytes, sum)
	}
}

// TestSettleCoversRacyWindow: a tree WaitSettled waited for is older than
// memory's racy window, so a warm catalog trusts its stats.
func TestSettleCoversRacyWindow(t *testing.T) {
	if Settle <= memory.RacyWindow {
		t.Errorf("Settle %v does not exceed memory.RacyWindow %v", Settle, memory.RacyWindow)
	}
}
