package score

import (
	"unicode"
	"unicode/utf8"
)

// minWordRunes is the shortest whole token: shorter runs ("a", "is", "of")
// match too much to be evidence of relevance.
const minWordRunes = 3

// runeClass says how a character takes part in tokens.
type runeClass uint8

const (
	// classSep ends any run and is never part of a token.
	classSep runeClass = iota
	// classWord is a letter, mark or digit of a script that separates words
	// with spaces or punctuation; runs of them are whole tokens.
	classWord
	// classCJK is Han, Hiragana, Katakana, Hangul, or a kana-run character
	// that Go's Script tables file under Common or Inherited; runs of them
	// give code-point bigrams.
	classCJK
	// classSEA is a letter or mark of a script written without word
	// separators outside CJK (Thai, Lao, Khmer, Myanmar); runs give bigrams
	// of clusters, and never join a CJK run.
	classSEA
)

// kanaRunMarks are characters whose Script is Common or Inherited (Go's
// tables use Script, not Script_Extensions) but which stand inside Japanese
// words: the prolonged sound mark, the middle dot, the voiced and
// semi-voiced sound marks (spacing and combining), the double hyphen and the
// iteration marks that are not already Han or kana.
func isKanaRunMark(r rune) bool {
	switch r {
	case 0x30FC, // ー prolonged sound mark
		0x30FB,         // ・ katakana middle dot
		0x309B, 0x309C, // ゛゜ spacing sound marks
		0x3099, 0x309A, // combining sound marks
		0x30A0,                                 // ゠ double hyphen
		0x3006,                                 // 〆 ideographic closing mark
		0x3031, 0x3032, 0x3033, 0x3034, 0x3035: // vertical kana repeat marks
		return true
	}
	return false
}

func classify(r rune) runeClass {
	switch {
	case r < utf8.RuneSelf:
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' {
			return classWord
		}
		return classSep
	// The blocks of the common scripts first, without a table search:
	// classifyRef in the tests is the definition, checked on every code
	// point (TestClassifyEqualsRef).
	case 0x4E00 <= r && r <= 0x9FFF, 0x3041 <= r && r <= 0x3096, 0x3099 <= r && r <= 0x30FF,
		0xAC00 <= r && r <= 0xD7A3, 0x3400 <= r && r <= 0x4DBF:
		return classCJK
	case 0x0400 <= r && r <= 0x0481, 0x0483 <= r && r <= 0x052F,
		0xC0 <= r && r <= 0x024F && r != 0xD7 && r != 0xF7:
		return classWord
	case 0x0E01 <= r && r <= 0x0E3A, 0x0E40 <= r && r <= 0x0E4E:
		return classSEA
	case 0x3000 <= r && r <= 0x3004, 0x3008 <= r && r <= 0x3020, 0x2000 <= r && r <= 0x206F:
		return classSep // CJK and general punctuation, spaces
	case 0x0E50 <= r && r <= 0x0E59:
		return classWord // Thai digits
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || isKanaRunMark(r):
		return classCJK
	case unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
		if unicode.In(r, unicode.L, unicode.M) {
			return classSEA
		}
		// Digits and punctuation of these scripts separate like any other.
		if unicode.IsNumber(r) {
			return classWord
		}
		return classSep
	case unicode.In(r, unicode.L, unicode.M, unicode.N):
		return classWord
	}
	return classSep
}

// Tokens returns the tokens of text in order of appearance, repeats
// included: Normalize first, then
//   - every run of letters, marks and digits without a CJK character and at
//     least three characters long is one token;
//   - every run of Han, Hiragana, Katakana and Hangul (with the kana-run
//     marks ー ・ ゛ ゜ and the iteration marks inside it) gives its
//     code-point bigrams; one isolated character gives nothing;
//   - runs of Thai, Lao, Khmer and Myanmar, which do not separate words,
//     give the bigrams and trigrams of their clusters (a consonant with
//     its marks and the vowels written around it, see nextCluster) rather
//     than one token per phrase; a single cluster gives nothing. A query
//     keeps only the trigrams of such a run (or its one bigram when it has
//     two clusters), so a query matches three clusters in a row — two
//     overlapping bigrams — not any pair such as the ubiquitous prefix ประ.
//
// A CJK character ends a Latin run: "abc漢字" is "abc", "漢字". Word runs
// joined by single underscores, hyphens or dots (isJoiner) also give the whole name after its
// last part ("create_issue" is "create", "issue", "create_issue"), so a
// query naming an identifier prefers the documents that name it too.
// Tokens gives a field's tokens; Query.Tokens gives a query's.
func Tokens(text string) []string {
	return AppendTokens(nil, Normalize(text))
}

// queryTokens is Tokens for query text: Thai-like runs give trigrams.
func queryTokens(text string) []string {
	var out []string
	forEachTokenOf(Normalize(text), true, func(tok string) { out = append(out, tok) })
	return out
}

// AppendTokens appends the tokens of already normalised text to dst and
// returns the extended slice. Tokens are substrings of normalized, so the
// only allocation is dst's growth.
func AppendTokens(dst []string, normalized string) []string {
	forEachToken(normalized, func(tok string) { dst = append(dst, tok) })
	return dst
}

// asciiClass classifies the ASCII bytes, the common case of the hot loop.
var asciiClass = func() (t [utf8.RuneSelf]runeClass) {
	for c := range t {
		t[c] = classify(rune(c))
	}
	return t
}()

// classAt classifies the rune at s[i] and returns its size.
func classAt(s string, i int) (runeClass, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	// Cyrillic U+0400–U+047F, a word letter, by the lead byte
	// (TestStableTwoByteLetters).
	if (c == 0xD0 || c == 0xD1) && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
		return classWord, 2
	}
	// Kana and Hangul, by their three bytes (TestStableKanaHangul).
	if (c == 0xE3 || c == 0xEA || c == 0xED) && i+2 < len(s) && stableKanaHangul(c, s[i+1], s[i+2]) {
		return classCJK, 3
	}
	// Thai letters and marks U+0E01–U+0E3A and U+0E40–U+0E4E, by their
	// three bytes (TestStableThai).
	if c == 0xE0 && i+2 < len(s) {
		if c1, c2 := s[i+1], s[i+2]; c1 == 0xB8 && 0x81 <= c2 && c2 <= 0xBA || c1 == 0xB9 && 0x80 <= c2 && c2 <= 0x8E {
			return classSEA, 3
		}
	}
	// CJK ideographs U+5000–U+9FFF and Hangul syllables U+B000–U+CFFF,
	// by the lead byte (TestStableLeadBytes).
	if (0xE5 <= c && c <= 0xE9 || c == 0xEB || c == 0xEC) && i+2 < len(s) &&
		s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
		return classCJK, 3
	}
	r, size := decodeRune(s, i)
	return classify(r), size
}

// forEachToken calls emit for every field token of normalised text, in
// order.
func forEachToken(s string, emit func(string)) { forEachTokenOf(s, false, emit) }

// forEachTokenOf calls emit for every token of normalised text, in order;
// query selects the query treatment of Thai-like runs.
func forEachTokenOf(s string, query bool, emit func(string)) {
	forEachTokenKind(s, query, func(tok string, _ bool) { emit(tok) })
}

// forEachTokenKind is forEachTokenOf also telling emit whether a token is
// a word token (isWordToken) rather than an n-gram of CJK or Thai-like
// text, which the tokenizer knows without decoding the token again.
func forEachTokenKind(s string, query bool, emit func(tok string, word bool)) {
	i := 0
	// compound is the start of the joined name the current word
	// run belongs to, parts how many word runs it has so far, and joined
	// says the previous run ended in a joiner.
	compound, parts, joined := 0, 0, false
	for i < len(s) {
		c, size := classAt(s, i)
		if c == classSep {
			i += size
			continue
		}
		start := i
		n := 0
		for i < len(s) {
			// ASCII letters and digits run without decoding.
			if c == classWord && s[i] < utf8.RuneSelf {
				if asciiClass[s[i]] != classWord {
					break
				}
				i++
				n++
				continue
			}
			rc, size := classAt(s, i)
			if rc != c {
				break
			}
			i += size
			n++
		}
		run := s[start:i]
		switch c {
		case classWord:
			if n >= minWordRunes {
				emit(run, true)
			}
			if joined {
				parts++
			} else {
				compound, parts = start, 1
			}
			joined = joinedAt(s, i, classAt)
			if joined {
				i++ // the joiner; the next run continues the compound
				continue
			}
			if parts > 1 {
				emit(s[compound:i], true)
			}
			parts = 0
		case classCJK:
			if query {
				queryBigramSpans(run, func(a, b int) { emit(run[a:b], false) })
			} else {
				emitBigrams(run, func(tok string) { emit(tok, false) })
			}
		case classSEA:
			clusterGramSpans(run, query, func(a, b int) { emit(run[a:b], false) })
		}
	}
}

// joinedAt reports whether the word run that ends at i is joined to the
// next one by a single joiner (isJoiner), as in create_issue,
// eta-predictor-cg or kill.dispatch.writes: the code point after the
// joiner is a word letter by class, the tokenizer's classAt or, for raw
// and ASCII text, rawClass. Every token loop asks this one question.
func joinedAt(s string, i int, class func(string, int) (runeClass, int)) bool {
	if i+1 >= len(s) || !isJoiner(s[i]) {
		return false
	}
	c, _ := class(s, i+1)
	return c == classWord
}

// isJoiner reports the characters that join word runs into one name:
// the underscore of snake_case, the hyphen of kebab-case names and ticket
// keys (DSP-409, eta-predictor-cg) and the dot of dotted names
// (kill.dispatch.writes, redact.Phone, v2.4). A name is a token of its
// own besides its parts (docs/decisions/0219-joined-names.md).
func isJoiner(c byte) bool { return c == '_' || c == '-' || c == '.' }

// emitBigrams emits every pair of adjacent code points of run. The run
// was decoded and classified rune by rune to be found, so it is valid
// UTF-8 without ASCII, and a code point's length is its lead byte's.
func emitBigrams(run string, emit func(string)) {
	a := 0
	b := leadSize(run[0])
	for b < len(run) {
		size := leadSize(run[b])
		emit(run[a : b+size])
		a = b
		b += size
	}
}

// leadSize is the length of the UTF-8 sequence that multi-byte lead byte c
// starts.
func leadSize(c byte) int {
	switch {
	case c < 0xE0:
		return 2
	case c < 0xF0:
		return 3
	}
	return 4
}

// cjkScript is the script a CJK-class character belongs to for the query
// bigram rule.
type cjkScript uint8

const (
	scriptHan cjkScript = iota
	scriptHiragana
	scriptKatakana
	scriptHangul
)

// scriptOf returns the script of a CJK-class character. The kana-run marks
// (ー ・ ゛ ゜ …) stand inside katakana words and count as Katakana; the
// iteration marks 々 〆 count as Han.
func scriptOf(r rune) cjkScript {
	switch {
	case unicode.Is(unicode.Hiragana, r):
		return scriptHiragana
	case unicode.Is(unicode.Katakana, r), isKanaRunMark(r) && r != 0x3006:
		return scriptKatakana
	case unicode.Is(unicode.Hangul, r):
		return scriptHangul
	}
	return scriptHan
}

// queryBigramSpans is emitBigrams for a query: it emits only the bigrams
// whose two characters are of one script, unless the run has none, in
// which case it emits them all. Japanese writes a word's particles and
// endings in Hiragana after a Han or Katakana stem (サーバーの, 証明書の,
// 夜間バッチが), so a bigram across a change of script almost always spans
// a word boundary — ーの, 書の, チが — and such a pair is found in any
// Japanese text about anything. A field keeps every bigram, so this is a
// rule on query tokens only and the index stays exact; a run made only of
// such pairs (書く) still matches. It calls span with the byte range of
// each bigram it emits, in order.
func queryBigramSpans(run string, span func(a, b int)) {
	prev, size := utf8.DecodeRuneInString(run)
	a, b := 0, size
	emitted := false
	for b < len(run) {
		r, size := utf8.DecodeRuneInString(run[b:])
		if scriptOf(prev) == scriptOf(r) {
			span(a, b+size)
			emitted = true
		}
		prev, a, b = r, b, b+size
	}
	if emitted {
		return
	}
	_, first := utf8.DecodeRuneInString(run)
	for a, b = 0, first; b < len(run); {
		_, size := utf8.DecodeRuneInString(run[b:])
		span(a, b+size)
		a, b = b, b+size
	}
}

// emitClusterGrams emits the cluster n-grams of run (see nextCluster):
// for a field every bigram and trigram, for a query every trigram, and in
// both the single bigram of a two-cluster run. Thai, Lao, Khmer and Myanmar
// write vowels and tones as marks and letters around a consonant; pairing
// bare code points would make units such as "consonant + tone mark" that
// half the language shares, and even cluster pairs are shared by unrelated
// words, so a query asks for three clusters in a row.
func emitClusterGrams(run string, query bool, emit func(string)) {
	clusterGramSpans(run, query, func(a, b int) { emit(run[a:b]) })
}

// clusterGramSpans calls span with the byte range of each n-gram
// emitClusterGrams emits, in order.
func clusterGramSpans(run string, query bool, span func(a, b int)) {
	// [a,b), [b,c) and [c,d) are consecutive clusters.
	a := 0
	b := nextCluster(run, a)
	if b == len(run) {
		return // a lone cluster
	}
	c := nextCluster(run, b)
	if c == len(run) {
		span(0, len(run)) // two clusters: one bigram
		return
	}
	for {
		if !query {
			span(a, c)
		}
		if c == len(run) {
			return
		}
		d := nextCluster(run, c)
		span(a, d)
		a, b, c = b, c, d
	}
}

// nextCluster returns the end of the cluster that starts at i: a leading
// vowel (Thai and Lao write เ แ โ ใ ไ before the consonant they follow in
// speech), a character, its combining marks, and the vowels ะ า ำ that
// close a syllable, with their marks. This is a light form of the Thai
// Character Cluster rules: enough that "กาแฟ" is the clusters กา and แฟ, not
// four letters whose pairs (กา, าแ, แฟ) half the language shares.
func nextCluster(run string, i int) int {
	r, size := decodeSEA(run, i)
	i += size
	for isLeadingVowel(r) && i < len(run) {
		r, size = decodeSEA(run, i)
		i += size
	}
	i, r, size = skipMarks(run, i)
	for i < len(run) && isClosingVowel(r) {
		i, r, size = skipMarks(run, i+size)
	}
	return i
}

// skipMarks returns the end of the marks that start at i, and the code
// point there and its size, so that the caller need not decode it again
// (r is meaningless at the end of run).
func skipMarks(run string, i int) (int, rune, int) {
	for i < len(run) {
		r, size := decodeSEA(run, i)
		if 0x0E00 <= r && r <= 0x0E7F {
			if !isThaiMark(r) {
				return i, r, size // isMark's Thai block, without its call
			}
		} else if !isMark(r) {
			return i, r, size
		}
		i += size
	}
	return i, 0, 0
}

// decodeSEA is decodeRune with the Thai block (E0 B8 xx, E0 B9 xx), which
// Thai-like runs are mostly made of, decoded first; TestDecodeSEA
// compares it with the utf8 package on every sequence that starts E0.
func decodeSEA(s string, i int) (rune, int) {
	if s[i] == 0xE0 && i+2 < len(s) && s[i+1]&0xFE == 0xB8 && s[i+2]&0xC0 == 0x80 {
		return 0x0E00 | rune(s[i+1]&1)<<6 | rune(s[i+2]&0x3F), 3
	}
	return decodeRune(s, i)
}

// isMark is unicode.IsMark with the Thai block decided by range (its
// marks are ั and ิ…ฺ, ็…๎); TestIsMarkEqualsUnicode checks it on every
// code point.
func isMark(r rune) bool {
	if 0x0E00 <= r && r <= 0x0E7F {
		return isThaiMark(r)
	}
	return unicode.IsMark(r)
}

// isThaiMark is isMark for r in the Thai block U+0E00–U+0E7F.
func isThaiMark(r rune) bool {
	return r == 0x0E31 || 0x0E34 <= r && r <= 0x0E3A || 0x0E47 <= r && r <= 0x0E4E
}

// isLeadingVowel reports the Thai and Lao vowels written before their
// consonant.
func isLeadingVowel(r rune) bool {
	return 0x0E40 <= r && r <= 0x0E44 || 0x0EC0 <= r && r <= 0x0EC4
}

// isClosingVowel reports the Thai and Lao vowels ะ า ำ (and Lao ະ າ ຳ),
// which are letters, not marks, but end the syllable before them.
func isClosingVowel(r rune) bool {
	switch r {
	case 0x0E30, 0x0E32, 0x0E33, 0x0EB0, 0x0EB2, 0x0EB3:
		return true
	}
	return false
}
