// Package gentree writes synthetic memory trees for benchmarks: topics in
// one of several scripts (English, Chinese, Japanese, Korean, Thai,
// Cyrillic, or English mixed with Chinese), with a title, a description
// and a body of about 150 words, so that the same benchmark can be run on
// every script the scorer tokenises differently. The output is a pure
// function of the language, the size and the seed.
package gentree

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Lang names the script of a generated tree.
type Lang string

// The languages a tree can be generated in.
const (
	English  Lang = "en"
	Chinese  Lang = "zh"
	Japanese Lang = "ja"
	Korean   Lang = "ko"
	Thai     Lang = "th"
	Cyrillic Lang = "ru"
	Mixed    Lang = "mixed" // English words and Chinese words, half each
)

// Langs lists every language, in a stable order.
var Langs = []Lang{English, Chinese, Japanese, Korean, Thai, Cyrillic, Mixed}

// ErrLang is returned for a language gentree does not know.
var ErrLang = errors.New("gentree: unknown language")

// ParseLang returns the Lang named s.
func ParseLang(s string) (Lang, error) {
	for _, l := range Langs {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("%w: %q", ErrLang, s)
}

// Settle is how long after a file is written memory's catalog stops
// distrusting its stat: memory.RacyWindow (2 s) with a margin. A scan
// re-reads a file whose modification or change time is within that window,
// which no real tree, written seconds to months earlier, makes it do. The
// change time cannot be set back (os.Chtimes sets it to now), so a
// benchmark that wants a warm engine to trust a tree it has just written
// waits, outside its timer; gentree_test.go checks Settle exceeds the window.
const Settle = 2100 * time.Millisecond

// WaitSettled sleeps until Settle has passed since written (the time the
// tree's last file was written): a caller that did other setup meanwhile
// waits only for what is left.
func WaitSettled(written time.Time) {
	if d := time.Until(written.Add(Settle)); d > 0 {
		time.Sleep(d)
	}
}

// vocabSize is the number of distinct words per language: an 8-word query
// then matches a realistic few percent of a large tree.
const vocabSize = 2000

// Gen generates the words and texts of one language.
type Gen struct {
	lang  Lang
	words []string
}

// New returns the generator of lang.
func New(lang Lang) (*Gen, error) {
	if _, err := ParseLang(string(lang)); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(7, 7))
	g := &Gen{lang: lang, words: make([]string, vocabSize)}
	for i := range g.words {
		g.words[i] = g.word(r, i)
	}
	return g, nil
}

// runes draws n characters from [lo, hi].
func runes(r *rand.Rand, n int, lo, hi rune) string {
	var b strings.Builder
	for range n {
		b.WriteRune(lo + rune(r.IntN(int(hi-lo+1))))
	}
	return b.String()
}

// latin is an English-like pseudo-word of 4 to 9 letters.
func latin(r *rand.Rand) string { return runes(r, 4+r.IntN(6), 'a', 'z') }

// word returns the i-th vocabulary word of the generator's language.
func (g *Gen) word(r *rand.Rand, i int) string {
	switch g.lang {
	case Chinese:
		return runes(r, 2+r.IntN(2), 0x4E00, 0x9FA5)
	case Japanese:
		switch i % 3 {
		case 0: // a kanji compound
			return runes(r, 2, 0x4E00, 0x9FA5)
		case 1: // a katakana loan word, sometimes with the long-vowel mark
			w := runes(r, 2+r.IntN(3), 0x30A2, 0x30F3)
			if r.IntN(2) == 0 {
				w += "ー"
			}
			return w
		default: // kanji with a hiragana ending
			return runes(r, 1, 0x4E00, 0x9FA5) + runes(r, 1+r.IntN(2), 0x3042, 0x3093)
		}
	case Korean:
		return runes(r, 2+r.IntN(3), 0xAC00, 0xD7A3)
	case Thai:
		// syllables as Thai writes them: now and then a leading vowel
		// (เ แ โ ใ ไ), a consonant, a vowel above or below it half
		// the time (ั ิ ี ุ), a tone mark (่ ้) one time in five, and a
		// closing vowel (ะ or า) in two syllables in ten and ำ (which NFKC
		// writes ํ า) in one in ten, as in ทำ น้ำ สำคัญ
		var b strings.Builder
		for range 2 + r.IntN(3) {
			if r.IntN(7) == 0 {
				b.WriteRune(0x0E40 + rune(r.IntN(5)))
			}
			b.WriteRune(0x0E01 + rune(r.IntN(0x0E2E-0x0E01+1)))
			if r.IntN(2) == 0 {
				b.WriteRune([]rune{0x0E31, 0x0E34, 0x0E35, 0x0E38}[r.IntN(4)])
			}
			if r.IntN(5) == 0 {
				b.WriteRune(0x0E48 + rune(r.IntN(2)))
			}
			switch r.IntN(10) {
			case 0, 1:
				b.WriteRune([]rune{0x0E30, 0x0E32}[r.IntN(2)])
			case 2:
				b.WriteRune(0x0E33)
			}
		}
		return b.String()
	case Cyrillic:
		return runes(r, 4+r.IntN(6), 'а', 'я')
	case Mixed:
		if i%2 == 0 {
			return latin(r)
		}
		return runes(r, 2+r.IntN(2), 0x4E00, 0x9FA5)
	}
	return latin(r)
}

// japaneseParticles join Japanese words, as real text does.
var japaneseParticles = []string{"の", "が", "を", "に", "は", "で", "と"}

// Text returns k vocabulary words drawn by r, joined as the language
// writes them: spaces for space-separated scripts, nothing for Chinese and
// Thai (with a comma now and then), particles for Japanese.
func (g *Gen) Text(r *rand.Rand, k int) string {
	var b strings.Builder
	for i := range k {
		w := g.words[r.IntN(len(g.words))]
		if i > 0 {
			switch g.lang {
			case Chinese:
				if i%7 == 0 {
					b.WriteString("，")
				}
			case Thai:
				if i%7 == 0 {
					b.WriteByte(' ')
				}
			case Japanese:
				b.WriteString(japaneseParticles[r.IntN(len(japaneseParticles))])
				if i%7 == 0 {
					b.WriteString("、")
				}
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

// Query returns an 8-word query over the vocabulary, the same for every
// tree of the language.
func (g *Gen) Query() string {
	w := g.words
	picks := []string{w[3], w[50], w[120], w[400], w[777], w[1000], w[1500], w[1999]}
	switch g.lang {
	case Chinese, Thai:
		return strings.Join(picks, "，")
	case Japanese:
		return strings.Join(picks, "の")
	}
	return strings.Join(picks, " ")
}

// Topic returns the i-th topic file of a tree generated with r.
func (g *Gen) Topic(r *rand.Rand, i int) string {
	types := []string{"user", "feedback", "project", "reference"}
	return fmt.Sprintf("---\ntype: %s\nname: %s\ndescription: %s\n---\n%s\n",
		types[i%4], g.Text(r, 4), g.Text(r, 12), g.Text(r, 150))
}

// Write writes a tree of n topics under root: 90 % in root/project, 10 %
// in root/user, 100 files per directory, modification times one minute
// apart from 2026-01-01. It returns the two roots and the total bytes
// written.
func Write(root string, lang Lang, n int) (project, user string, bytes int64, err error) {
	g, err := New(lang)
	if err != nil {
		return "", "", 0, err
	}
	r := rand.New(rand.NewPCG(uint64(n), 1))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		scope := "project"
		if i%10 == 9 {
			scope = "user"
		}
		dir := filepath.Join(root, scope, fmt.Sprintf("d%03d", i/100))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", "", 0, fmt.Errorf("gentree: %w", err)
		}
		text := g.Topic(r, i)
		path := filepath.Join(dir, fmt.Sprintf("t%05d.md", i))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return "", "", 0, fmt.Errorf("gentree: %w", err)
		}
		bytes += int64(len(text))
		mod := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(path, mod, mod); err != nil {
			return "", "", 0, fmt.Errorf("gentree: %w", err)
		}
	}
	return filepath.Join(root, "project"), filepath.Join(root, "user"), bytes, nil
}
