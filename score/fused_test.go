package score

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/internal/testenv"
	"github.com/memrecall/memrecall/memory"
	"golang.org/x/text/unicode/norm"
	"pgregory.net/rapid"
)

// rawClassRef is rawClass by its definition, for the code point r alone:
// its class when normalizeFast keeps it as it is or maps it to an ASCII
// separator that is not a joiner, the class of its NFKC's code points
// for ำ, else classUnsure.
func rawClassRef(r rune) runeClass {
	switch kind, _ := fastRune(r); kind {
	case fastStable:
		return classifyRef(r)
	case fastThaiAm:
		var class []runeClass
		for _, d := range norm.NFKC.String(string(r)) {
			class = append(class, classifyRef(d))
		}
		if len(class) == 2 && class[0] == class[1] {
			return class[0]
		}
	case fastWide:
		if b := wideASCII(r); classifyRef(rune(b)) == classSep && !isJoiner(b) {
			return classSep
		}
	}
	return classUnsure
}

// TestRawClassEveryCodePoint checks rawClass on every code point, alone,
// followed by a letter, and cut short by a byte: cut, it must be unsure.
func TestRawClassEveryCodePoint(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		s := string(r)
		want := rawClassRef(r)
		for _, text := range []string{s, s + "a", s + "\x80"} {
			class, size := rawClass(text, 0)
			if class != want || want != classUnsure && size != len(s) {
				t.Fatalf("rawClass(%q) = %d, %d; want %d, %d", text, class, size, want, len(s))
			}
		}
		if len(s) == 2 {
			if folds := raw2[raw2Index(s[0], s[1])]&raw2Folds != 0; folds != (want == classWord && needsFold(s)) {
				t.Fatalf("raw2 says %U folds: %v", r, folds)
			}
		}
		if len(s) > 1 {
			if class, _ := rawClass(s[:len(s)-1], 0); class != classUnsure {
				t.Fatalf("rawClass(%q), a cut U+%04X, = %d; want unsure", s[:len(s)-1], r, class)
			}
		}
	}
}

// TestRawClassEverySequence: on every sequence of two and three bytes
// that starts with a byte ≥ 0x80, rawClass vouches only for a valid
// code point of the size it reports.
func TestRawClassEverySequence(t *testing.T) {
	b := make([]byte, 3)
	for c := 0x80; c <= 0xFF; c++ {
		for c1 := range 256 {
			for c2 := range 256 {
				b[0], b[1], b[2] = byte(c), byte(c1), byte(c2)
				for _, n := range []int{2, 3} {
					s := string(b[:n])
					class, size := rawClass(s, 0)
					if class == classUnsure {
						continue
					}
					r, want := utf8.DecodeRuneInString(s)
					if r == utf8.RuneError || size != want || rawClassRef(r) != class {
						t.Fatalf("rawClass(%q) = %d, %d; decodes to U+%04X, %d", s, class, size, r, want)
					}
				}
			}
		}
	}
}

// directKeys is scoreDirect by its definitions, worked out once per
// document for any number of queries: the body window counted by a range
// loop, every field normalised by normalizeFull, and every key of every
// token from the general tokenizer without a query's prefilter, with its
// field; masks applies them to a query, and the noise filter reads that
// text.
type directKeys struct {
	text docText
	keys []string
	bits []field
}

func newDirectRef(d *memory.Document) *directKeys {
	w := bodyWindowRef(d.Body)
	// The rest of the body the scorer reads: up to the last code-point
	// start (or the body's end) within the read limit, and not before the
	// window's end; found forwards, not as splitBody backs off.
	end := len(w)
	for e := len(w); e <= min(len(d.Body), max(memory.ReadLimit, len(w))); e++ {
		if e == len(d.Body) || utf8.RuneStart(d.Body[e]) {
			end = e
		}
	}
	ref := &directKeys{text: docText{normalizeFull(d.Title), normalizeFull(d.Description), normalizeFull(w), normalizeFull(d.Body[len(w):end])}}
	var buf []string
	ref.text.forEachKey(nil, &buf, func(k string, f field) {
		ref.keys = append(ref.keys, k)
		ref.bits = append(ref.bits, f)
	})
	return ref
}

func (ref *directKeys) masks(q *Query) (m [MaxQueryTokens]field, noise bool) {
	if len(q.aliases) > 0 {
		nt, ok := ref.text.usageOnly()
		noise = ok && mentionsTool(nt, q.aliases)
	}
	for i, k := range ref.keys {
		q.apply(&m, k, ref.bits[i])
	}
	return m, noise
}

type fataler interface {
	Helper()
	Fatalf(string, ...any)
}

// checkDirect fails when scoreDirect and its definition (directKeys)
// differ on d for q.
func checkDirect(t fataler, q *Query, d *memory.Document) {
	t.Helper()
	checkDirectRef(t, q, d, newDirectRef(d))
}

// checkDirectRef is checkDirect with d's reference worked out.
func checkDirectRef(t fataler, q *Query, d *memory.Document, ref *directKeys) {
	t.Helper()
	var got [MaxQueryTokens]field
	var buf []string
	noise := scoreDirect(q, d, &buf, &got)
	want, wantNoise := ref.masks(q)
	if got == want && noise == wantNoise {
		return
	}
	if diff := cmp.Diff(want[:len(q.tokens)], got[:len(q.tokens)]); diff != "" || noise != wantNoise {
		t.Fatalf("query %q, doc %+q / %+q / %+q: masks (-ref +direct):\n%s noise %v, ref %v", q.Tokens(), d.Title, d.Description, d.Body, diff, noise, wantNoise)
	}
}

// scriptFragments are pieces of text in every script the raw pass takes
// and the hard cases it must hand over: upper case (Latin, Cyrillic,
// Latin-1, full-width), full-width separators and joiners, the
// ideographic space, Thai with ำ (which NFKC decomposes), marks in and out
// of canonical order, leading and closing vowels, Lao and Khmer (not in
// the raw pass), kana-run marks, combining accents, four-byte code points,
// U+FFFD, invalid bytes and cut sequences, and ASCII inflections and
// identifiers.
var scriptFragments = []string{
	"deploy", "deploys", "using", "use", "create_issue", "a_b", "x__y", "eta-predictor-cg", "kill.dispatch.writes", "v2.4", "ab－cd", "ab．cd", "a--b", "Deploy", "LOG", "v2",
	"сервер", "сервера", "Сервер", "её", "мой", "ёлка", "café", "été", "Été", "naïve", "straße", "÷", "×",
	"部署", "部署失败", "服务器", "，", "：", "　", "＿", "ａｂｃ", "ＡＢＣ", "１２３", "〆", "々",
	"サーバー", "サーバーの", "ｻｰﾊﾞｰ", "ひらがな", "カタカナ", "゛", "\u3099", "・", "ヿ",
	"서버", "배포", "한국어", "\u1100\u1161",
	"가\u11a8", "나가", "ab_cd_Ａ", "ประชุม", "งบประมาณ", "กาแฟ", "เก่า", "ไม้", "ทำ", "น้ำ", "ก\u0e38\u0e48", "ก\u0e48\u0e38", "\u0e38", "เ", "๑๒๓", "฿",
	"ພາສາລາວ", "ភាសា", "ελληνικά", "ΒΑΣΗΣ", "العربية", "e\u0301", "\u0130", "ﬁ",
	"😀", "𠀀", "\ufffd", "\xff", "\xe4\xb8", "\x80", "\xe0\xb8",
}

var scriptSeparators = []string{" ", "", "_", "\n", ".", "-", "、", "。"}

func scriptTextGen(maxParts int) *rapid.Generator[string] {
	return fragmentTextGen(scriptFragments, scriptSeparators, maxParts)
}

// TestPropScoreDirectEqualsRef: scoreDirect (ASCII loop, raw one-decode
// pass, general path, unchecked body window) gives the masks and the noise
// verdict of the definitions on text of every script, with and without
// recent tools, on bodies short, around the window and past it.
func TestPropScoreDirectEqualsRef(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		body := scriptTextGen(20).Draw(t, "body")
		switch rapid.IntRange(0, 3).Draw(t, "length") {
		case 1: // a long body: three-byte runes, near the window in runes
			n := rapid.IntRange(memory.BodyWindow-30, memory.BodyWindow+30).Draw(t, "runes")
			body = strings.Repeat(rapid.SampledFrom([]string{"漢", "ก", "ж", "a"}).Draw(t, "rune"), n) + body
		case 2:
			body = strings.Repeat(body+" ", 100)
		}
		d := &memory.Document{
			Title:       scriptTextGen(4).Draw(t, "title"),
			Description: scriptTextGen(6).Draw(t, "description"),
			Body:        body,
		}
		var tools []string
		if rapid.Bool().Draw(t, "tools") {
			tools = []string{"create_issue", "deploy"}
		}
		// The query is random text or tokens of the document: of its
		// normalised text, which it must match, and of its raw text
		// (tokenised without normalising), which it must match only
		// where normalising keeps them.
		qtext := scriptTextGen(8).Draw(t, "query")
		if rapid.Bool().Draw(t, "own tokens") {
			own := slices.Concat(Tokens(d.Title+" "+d.Body), AppendTokens(nil, d.Title+" "+d.Body))
			if len(own) > 0 {
				qtext = strings.Join(rapid.SliceOfN(rapid.SampledFrom(own), 1, 20).Draw(t, "tokens"), " ")
			}
		}
		q := NewQuery(qtext, tools)
		checkDirect(t, &q, d)
	})
}

// TestScoreDirectEveryCodePoint puts every code point of the Basic
// Multilingual Plane, and the first of each later plane, inside a word
// and an identifier, a CJK run, a Hangul word, Thai runs (after a closing
// vowel, and after a tone mark, where a mark of lower combining class
// must be reordered) and a Cyrillic word, each context in a field of its
// own: the raw pass stops at the first code point it is unsure of, and
// what it scored before must not count (나가 before a final jamo, which
// composes into 각). scoreDirect is checked against its definition for a
// query made of the text's own tokens, normalised and as they stand, and
// for one that takes every piece of two to four code points around the
// code point as a token. Code points the raw pass takes share documents,
// three at a time. The others take documents of their own: go test ./...
// checks those of the blocks next to the ones the raw pass takes (Latin-1
// and Latin Extended, combining marks, Cyrillic, Thai and Lao, Hangul
// jamo, CJK symbols and kana, half- and full-width forms) and every 16th
// of the rest, MEMRECALL_DEEP=1 every one.
func TestScoreDirectEveryCodePoint(t *testing.T) {
	near := func(r rune) bool {
		return r < 0x0530 || 0x0E00 <= r && r <= 0x0EFF || 0x1100 <= r && r <= 0x11FF ||
			0x3000 <= r && r <= 0x30FF || 0xFF00 <= r && r <= 0xFFEF
	}
	contexts := func(c string) [6]string {
		return [6]string{"ab" + c + "cd_x" + c, "漢" + c + "字", "나가" + c + "다", "กา" + c + "เก่าแฟ",
			"ก\u0e48" + c + "าแฟ", c + c + "дом" + c + "ж"}
	}
	check := func(rs []rune) {
		var fields [6][]string
		for _, r := range rs {
			for k, ctx := range contexts(string(r)) {
				fields[k] = append(fields[k], ctx)
			}
		}
		var f [6]string
		for k := range fields {
			f[k] = strings.Join(fields[k], "\n")
		}
		for _, d := range []*memory.Document{
			{Title: f[0], Description: f[1], Body: f[2]},
			{Title: f[3], Description: f[4], Body: f[5]},
		} {
			text := d.Title + "\n" + d.Description + "\n" + d.Body
			toks := dedupe(slices.Concat(Tokens(text), AppendTokens(nil, text)))
			if len(toks) > MaxQueryTokens {
				t.Fatalf("%d tokens for %q: more than a query keeps", len(toks), rs)
			}
			q := NewQuery(strings.Join(toks, " "), nil)
			ref := newDirectRef(d)
			checkDirectRef(t, &q, d, ref)
			for _, r := range rs {
				p := probeQuery(pieces(text, string(r)))
				checkDirectRef(t, &p, d, ref)
			}
		}
	}
	var sure []rune
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF || r > 0xFFFF && r%0x10000 != 0 {
			continue
		}
		if rawClassRef(r) == classUnsure {
			if testenv.Deep() || near(r) || r%16 == 0 {
				check([]rune{r})
			}
			continue
		}
		if sure = append(sure, r); len(sure) == 3 {
			check(sure)
			sure = sure[:0]
		}
	}
	check(sure)
}

// TestScoreDirectHandsOver: text the raw pass must hand to the general
// path after scoring part of it, where what it scored differs from the
// normalised text's tokens.
func TestScoreDirectHandsOver(t *testing.T) {
	for _, c := range []struct{ query, text string }{
		{"나가", "나가\u11a8"},                                        // 가 + ᆨ composes into 각
		{"ก\u0e48\u0e38ข", "ก\u0e48\u0e38ขค"},                     // tone mark before ุ: reordered
		{"abc_d", "abc_d_\uff21 x"},                               // a full-width A lowers into the identifier
		{"сервер", "сервер \u0301 Сервер"},                        // a lone accent, upper case
		{"กาแฟ", "\u0e01\u0e32\u0e41\u0e1f\u0e33"},                // ำ decomposes: the raw pass writes it ํ า
		{"กำแฟ", "ก\u0e33\u0e48แฟ Ａ"},                             // ำ before a tone mark, then a hand-over
		{"กาแฟ", "กาแฟ" + strings.Repeat("\u0e32", 400) + "กาแฟ"}, // a cluster longer than the raw pass's buffer
		{"กำแฟ", strings.Repeat("กำแฟเก่า", 200)},                 // a run scored in pieces
	} {
		q := NewQuery(c.query+" "+strings.Join(AppendTokens(nil, c.text), " "), nil)
		for _, d := range []*memory.Document{{Title: c.text}, {Body: c.text}, {Body: strings.Repeat("字", memory.BodyWindow) + c.text}} {
			checkDirect(t, &q, d)
		}
	}
}

// TestScoreDirectFoldedKeys: the folded keys the raw pass writes into a
// buffer (appendFoldFast), the fold and the German transliteration, find
// what the definitions find, in Latin-1 and Cyrillic.
func TestScoreDirectFoldedKeys(t *testing.T) {
	for _, c := range []struct{ query, text string }{
		{"mueller muller groesse grosse", "müller größe, die müllers"},
		{"ёлка елка мой мои", "ёлки мой ёжик"},
		{"cafe naive strasse", "café naïve straße cafés"},
	} {
		q := NewQuery(c.query, nil)
		for _, d := range []*memory.Document{{Title: c.text}, {Body: c.text}} {
			checkDirect(t, &q, d)
		}
	}
}

// TestScoreDirectLongThaiRun: a Thai run longer than the raw pass's
// buffer, made of n-grams that do not repeat, is scored by the raw pass in
// pieces without losing the n-grams that straddle a piece's end: a query
// of every 40 tokens of the run in turn.
func TestScoreDirectLongThaiRun(t *testing.T) {
	var b strings.Builder
	r := rand.New(rand.NewPCG(12, 1))
	for range 600 {
		b.WriteRune(0x0E01 + rune(r.IntN(46)))
		if r.IntN(3) == 0 {
			b.WriteRune(0x0E32 + rune(r.IntN(2))) // า or ำ
		}
	}
	text := b.String()
	toks := AppendTokens(nil, Normalize(text))
	d := &memory.Document{Body: text}
	ref := newDirectRef(d)
	for i := 0; i < len(toks); i += 40 {
		q := probeQuery(toks[i:min(i+40, len(toks))])
		checkDirectRef(t, &q, d, ref)
		// The general path would find the same: the raw pass must
		// not hand the run to it.
		var buf []string
		var masks [MaxQueryTokens]field
		if !scoreRawField(&q, text, fieldBody, &buf, &masks) {
			t.Fatalf("the raw pass gives up on a Thai run of %d bytes", len(text))
		}
	}
}

// TestNewQueryTokenFoldingToNothing: a query word of a letter and marks
// that folding drops whole (ـَّ, the NFKC of U+FCF2) is a query token
// without a folded form; it used to panic in NewQuery.
func TestNewQueryTokenFoldingToNothing(t *testing.T) {
	q := NewQuery("deploy \ufcf2 server", nil)
	if diff := cmp.Diff([]string{"deploy", "\u0640\u064e\u0651", "server"}, q.Tokens()); diff != "" {
		t.Fatalf("tokens (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", "", ""}, q.alts); diff != "" {
		t.Fatalf("folded forms (-want +got):\n%s", diff)
	}
	checkDirect(t, &q, &memory.Document{Title: "deploy \ufcf2", Body: "\u0640\u064e\u0651 \u0640"})
}

// TestScoreDirectBodyWindowUnchecked: a body of at most BodyWindow
// code-point starts but more bytes is taken whole unchecked; invalid
// bytes that make it longer than the window, anywhere in it, must send it
// to the exact window.
func TestScoreDirectBodyWindowUnchecked(t *testing.T) {
	q := NewQuery("漢字 字漢 ab", nil)
	w := memory.BodyWindow
	for _, body := range []string{
		strings.Repeat("漢字", w/2),
		strings.Repeat("漢字", w/2-1) + "字",
		strings.Repeat("漢字", w/2-1) + "\x80\x80字漢",
		"\x80\x80" + strings.Repeat("漢字", w/2-1) + "漢字",
		strings.Repeat("字", w-2) + "\xe6\xbc" + "\xe6\xbc" + "漢字",
		strings.Repeat("字", w-2) + "ab" + "\x80漢字",
	} {
		checkDirect(t, &q, &memory.Document{Body: body})
	}
}

// probeQuery is a query whose tokens are toks (at most MaxQueryTokens) as
// they are: each is its own only key, and the prefilters let everything
// through.
func probeQuery(toks []string) Query {
	toks = dedupe(toks)
	toks = toks[:min(len(toks), MaxQueryTokens)]
	q := Query{tokens: toks, lookup: map[string]keyRef{}, shortKey: minWordRunes}
	for i := range q.sketch {
		q.sketch[i], q.thaiHeads[i] = ^uint64(0), ^uint64(0)
	}
	for i := range q.heads {
		q.heads[i] = ^uint64(0)
	}
	for i := range q.cjkPairs {
		q.cjkPairs[i] = ^uint64(0)
	}
	for i, tok := range toks {
		r := q.lookup[tok]
		r.exact |= 1 << i
		q.lookup[tok] = r
	}
	return q
}

// pieces returns the substrings of text of two to four code points that
// hold c and do not cross a space.
func pieces(text, c string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		rs := []rune(w)
		for i := range rs {
			for n := 2; n <= 4 && i+n <= len(rs); n++ {
				if p := string(rs[i : i+n]); strings.Contains(p, c) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// TestRawClassCJKIsThreeBytes: every code point rawClass files as CJK
// has three bytes that isRawCJK3 accepts, which scanRaw's CJK loop relies on (a
// bigram of two of them is six bytes, the code point before one starts
// three bytes back).
func TestRawClassCJKIsThreeBytes(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		s := string(r)
		if class, size := rawClass(s, 0); class == classCJK && (size != 3 || !isRawCJK3(s[0], s[1], s[2])) {
			t.Fatalf("rawClass(%U) = CJK, %d bytes, isRawCJK3 false", r, size)
		}
	}
}

// TestCJKPairsHoldKeys: NewQuery's pair filter has the bit of every key
// of two CJK code points, whatever the query's text.
func TestCJKPairsHoldKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := NewQuery(scriptTextGen(8).Draw(t, "query"), nil)
		for k := range q.lookup {
			if len(k) != 6 || !isRawCJK3(k[0], k[1], k[2]) || !isRawCJK3(k[3], k[4], k[5]) {
				continue
			}
			h := cjkPair(cjkIndex(k[0], k[1], k[2]), cjkIndex(k[3], k[4], k[5]))
			if q.cjkPairs[h/64]&(1<<(h%64)) == 0 {
				t.Fatalf("query %q: key %q is not in the pair filter", q.tokens, k)
			}
		}
	})
}

// cjkRunToRef is cjkRunTo by its definition, a code point at a time.
func cjkRunToRef(pairs *[cjkPairBits / 64]uint64, s string, i int, prev uint) (end int, last uint, hit bool) {
	for ; i+3 <= len(s) && isRawCJK3(s[i], s[i+1], s[i+2]); i += 3 {
		k := cjkIndex(s[i], s[i+1], s[i+2])
		if h := cjkPair(prev, k); pairs[h/64]&(1<<(h%64)) != 0 {
			return i, k, true
		}
		prev = k
	}
	return i, prev, false
}

// cjkRunPieces are what may stand in or after a CJK run: ideographs,
// kana, Hangul, a three-byte lead of a code point that is not CJK (Thai,
// punctuation, a full-width form, a private-use code point), sequences
// cut short or with a bad byte in each place, ASCII, two- and four-byte
// code points.
var cjkRunPieces = []string{"漢", "字", "の", "ー", "ア", "가", "힣", "ก", "、", "，", "\ue000", "\u3040",
	"\xe4\xb8", "\xe4", "\xe4\x38\xad", "\xe4\xb8\x2d", "\xe4\xb8\xc0", " ", "a", "ж", "😀"}

// TestCJKRunToEqualsRef: cjkRunTo, two code points a step and the last
// one apart, ends where its definition ends, with the same last code
// point and verdict, from every start of generated text, with any prev
// and pair filters empty, full and in between.
func TestCJKRunToEqualsRef(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(cjkRunPieces), 0, 12).Draw(t, "parts")
		s := strings.Join(parts, "")
		prev := uint(rapid.IntRange(0, 0xFFFF).Draw(t, "prev"))
		var pairs [cjkPairBits / 64]uint64
		switch density := rapid.IntRange(0, 3).Draw(t, "density"); density {
		case 0:
		case 3:
			for w := range pairs {
				pairs[w] = ^uint64(0)
			}
		default:
			for w := range pairs {
				for range density {
					pairs[w] |= 1 << rapid.IntRange(0, 63).Draw(t, "bit")
				}
			}
		}
		for i := 0; i <= len(s); i++ {
			end, last, hit := cjkRunTo(&pairs, s, i, prev)
			wend, wlast, whit := cjkRunToRef(&pairs, s, i, prev)
			if end != wend || last != wlast || hit != whit {
				t.Fatalf("cjkRunTo(%+q, %d, %#x) = %d, %#x, %v; want %d, %#x, %v", s, i, prev, end, last, hit, wend, wlast, whit)
			}
		}
	})
}

// TestRawCJKBits: isRawCJK3 is rawClass's CJK verdict on every sequence
// of three bytes that starts E0–EF.
// TestCJKRawTable: cjkRaw, filled a word at a time, holds exactly the
// code points of cjkRawRanges, set a bit at a time here.
func TestCJKRawTable(t *testing.T) {
	var want [len(cjkRaw)]uint64
	for _, r := range cjkRawRanges {
		for c := r[0]; c <= r[1]; c++ {
			want[c/64] |= 1 << (c % 64)
		}
	}
	if diff := cmp.Diff(want, cjkRaw); diff != "" {
		t.Errorf("cjkRaw (-want +got):\n%s", diff)
	}
}

func TestRawCJKBits(t *testing.T) {
	for c := 0xE0; c <= 0xEF; c++ {
		for c1 := range 256 {
			for c2 := range 256 {
				s := string([]byte{byte(c), byte(c1), byte(c2)})
				class, size := rawClass(s, 0)
				want := class == classCJK && size == 3
				if got := isRawCJK3(byte(c), byte(c1), byte(c2)); got != want {
					t.Fatalf("isRawCJK3(%q) = %v, rawClass %d, %d", s, got, class, size)
				}
			}
		}
	}
}

// FuzzScoreDirect: on any title, body and query, scoreDirect gives the
// masks of its definition (directKeys).
func FuzzScoreDirect(f *testing.F) {
	for i, frag := range scriptFragments {
		f.Add(frag+" "+scriptFragments[(i+1)%len(scriptFragments)], frag+frag, frag)
	}
	f.Add("나가\u11a8", "ก\u0e48\u0e38ขค", "나가 ก\u0e48\u0e38ข")
	f.Fuzz(func(t *testing.T, title, body, query string) {
		q := NewQuery(query+" "+strings.Join(AppendTokens(nil, title+" "+body), " "), nil)
		checkDirect(t, &q, &memory.Document{Title: title, Body: body})
	})
}
