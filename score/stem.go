package score

import "strings"

// lightStem reduces an ASCII word to a light stem by taking off English
// inflections, so that a query word and a field word that are both
// inflected ("retries" and "retry", "escalations" and "escalation",
// "retrying" and "retried") meet. Rules, the first that leaves at least
// minWordRunes bytes applying:
//
//	-ies, -ied → -y             (retries, retried → retry)
//	-sses → -ss                 (processes → process)
//	-ie → -y, -esse → -ess      (cookie, catégorie typed categorie,
//	                             adresse: the singulars of -ies and
//	                             -esses plurals, in French and English)
//	-ings, -ing, -ed            (settings, logging, stopped; a doubled
//	                             final consonant other than l, s, z undone)
//	-s, but not -ss, -us, -is   (jobs → job; class, status, redis stay)
//
// repeated until none applies, so the stem of a stem is itself (the index
// files field tokens under stems and a Query holds stems, so the naive
// scorer's Matches must give the same answer for either). Bigrams,
// non-ASCII words and snake_case identifiers are their own stem: the
// inflection rule already covers their endings one way, and a name is not
// a word to be stemmed. There is no -e rule ("note" would meet "not") and
// no -er rule ("user" is not "use").
func lightStem(w string) string {
	if len(w) <= minWordRunes || !isASCII(w) || !isWordToken(w) || isJoined(w) {
		return w
	}
	for {
		s := stemOnce(w)
		if s == w {
			return american(w)
		}
		w = s
	}
}

// stemOnce applies the first rule of lightStem that leaves a stem of at
// least minWordRunes bytes, or returns w.
func stemOnce(w string) string {
	n := len(w)
	ok := func(s string) bool { return len(s) >= minWordRunes }
	if strings.HasSuffix(w, "ies") || strings.HasSuffix(w, "ied") {
		if s := w[:n-3]; ok(s) {
			return s + "y"
		}
	}
	if s := w[:n-2]; strings.HasSuffix(w, "sses") && ok(s) {
		return s
	}
	// The singulars of such plurals in French (and in English -ie words):
	// catégorie, sortie, cookie → -y as their -ies plurals, adresse,
	// vitesse → -ess as their -esses plurals, so a French word typed in
	// ASCII meets its plural as an English one does.
	if s, found := strings.CutSuffix(w, "ie"); found && ok(s) {
		return s + "y"
	}
	if s, found := strings.CutSuffix(w, "esse"); found && ok(s) {
		return s + "ess"
	}
	for _, suffix := range [...]string{"ings", "ing", "ed"} {
		if base, found := strings.CutSuffix(w, suffix); found && ok(base) {
			if s := undouble(base); keepsEnough(base, s) {
				return s
			}
			return w
		}
	}
	if strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is") {
		return w
	}
	if s, found := strings.CutSuffix(w, "s"); found && ok(s) {
		return s
	}
	return w
}

// undouble undoes the doubling of a final consonant before -ing or -ed
// (logg → log, stopp → stop), but not of l, s or z, which English words end
// in doubled (install, pass, buzz), and not below minWordRunes bytes (add).
func undouble(s string) string {
	n := len(s)
	if n > minWordRunes && s[n-1] == s[n-2] && isDoublingConsonant(s[n-1]) && !strings.ContainsRune("lsz", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}

// keepsEnough is the guard against over-stemming (docs/decisions/
// 0207-folding-stems.md): a stem that takes -ed, -ing or -ings off keeps at
// least four bytes, or three when a doubled consonant was undone
// (logged → log) or when the three end in a doubled letter (added → add).
// Words that only look inflected keep their ending: embed (so embeddings →
// embed, not emb), string, speed, thing.
func keepsEnough(base, stem string) bool {
	if len(stem) >= 4 {
		return true
	}
	n := len(base)
	return len(stem) < n || base[n-1] == base[n-2]
}

// ourRoots are the word starts whose British -our- is American -or-
// (colour, behaviour, favourite, honours, neighbourhood).
var ourRoots = [...]string{"col", "behavi", "fav", "hon", "lab", "neighb", "flav", "hum",
	"rum", "harb", "vap", "arm", "endeav", "sav", "od", "parl", "splend", "vig", "tum", "val"}

// iseRoots are the word starts whose British -is- (organise, optimising,
// normalisation, serialiser) is American -iz-; the analy/paraly/cataly
// roots write -ys- as -yz- (analyse, analysed).
var iseRoots = [...]string{"organ", "real", "recogn", "optim", "normal", "initial", "serial",
	"deserial", "author", "priorit", "util", "custom", "summar", "synchron", "minim", "maxim",
	"final", "categor", "visual", "sanit", "token", "parallel", "standard", "special", "emphas",
	"apolog", "memor", "capital", "central", "decentral", "local", "global", "modern", "character",
	"container", "virtual", "vector", "personal", "legal", "stabil", "mobil", "anonym", "random",
	"harmon", "general", "material", "internal", "penal", "symbol", "monet", "digit", "item",
	"rational", "familiar", "formal", "neutral", "social", "equal",
	"industrial", "commercial", "hospital", "critic", "analy", "paraly", "cataly"}

// britishWords maps British spellings (as light stems) to American ones
// that a suffix rule cannot reach.
var britishWords = map[string]string{
	"artefact": "artifact", "artefacts": "artifact",
	"catalogue": "catalog", "catalogu": "catalog",
	"dialogue": "dialog", "dialogu": "dialog",
	"analogue": "analog", "programme": "program",
	"licence": "license", "defence": "defense", "offence": "offense", "pretence": "pretense",
	"centre": "center", "metre": "meter", "litre": "liter", "fibre": "fiber",
	"theatre": "theater", "calibre": "caliber", "spectre": "specter", "sabre": "saber",
	"aluminium": "aluminum", "cheque": "check", "manoeuvre": "maneuver",
	"judgement": "judgment", "acknowledgement": "acknowledgment",
	"enroll": "enrol", "fulfill": "fulfil", "skillful": "skilful", "installment": "instalment",
	"travell": "travel", "modell": "model", "labell": "label", "cancell": "cancel",
	"signall": "signal", "fuell": "fuel", "levell": "level", "channell": "channel",
	"tunnell": "tunnel", "marshall": "marshal", "totall": "total", "diall": "dial",
	"counsell": "counsel", "jewell": "jewel", "quarrell": "quarrel", "equall": "equal",
}

// american rewrites a British spelling to the American one, so that the
// two meet (docs/decisions/0207-folding-stems.md). Every rewrite keeps the
// first three bytes and never lengthens the word, which the index's
// prefilter (Query.mayMatch) relies on; the American form is its own
// rewrite, so lightStem stays idempotent.
func american(w string) string {
	if a, ok := britishWords[w]; ok {
		return a
	}
	// Most words hold neither "our" nor "is"/"ys" past their first two
	// bytes: one scan each decides, before the root tables are walked.
	if i := strings.Index(w, "our"); i >= 2 {
		for _, r := range ourRoots {
			if len(r) == i && w[:i] == r {
				return r + "or" + w[i+3:]
			}
		}
	}
	if len(w) < 6 || !strings.Contains(w[3:], "is") && !strings.Contains(w[3:], "ys") {
		return w
	}
	for _, r := range iseRoots {
		rest, ok := strings.CutPrefix(w, r)
		if !ok || rest == "" {
			continue
		}
		switch {
		case strings.HasSuffix(r, "y") && rest[0] == 's':
			return r + "z" + rest[1:]
		case strings.HasPrefix(rest, "is") && !strings.HasPrefix(rest, "ism") && !strings.HasPrefix(rest, "ist"):
			return r + "iz" + rest[2:]
		}
	}
	return w
}

// silentEKey is the second key of a query word typed with an -ing, -ings
// or -ed ending whose stem took the ending off (stem): the stem of the
// word with the ending replaced by a silent e, when that is another key.
// The field side files "triaging" under "triage" too (the silent-e
// reading of 0200), but lightStem has no -e rule ("note" is not "not"),
// so the query "triaging" (stem "triag") missed a note that says
// "triage"; with this key it finds it, as "based" finds "base" and
// "coding" finds "code". The ending must follow a consonant that is not
// doubled (running, stopped) and not w, x or y, which English does not
// write before a silent e, and a function word is no key ("thing" is
// not "the"). The key is only looked up, never stemmed further, so
// "note" still does not meet "not".
func silentEKey(w, stem string) string {
	if !isASCII(w) || isJoined(w) || !isWordToken(w) {
		return ""
	}
	var base string
	for _, suffix := range [...]string{"ings", "ing", "ed"} {
		if b, ok := strings.CutSuffix(w, suffix); ok {
			base = b
			break
		}
	}
	n := len(base)
	if n < 2 || !isDoublingConsonant(base[n-1]) || base[n-1] == base[n-2] {
		return ""
	}
	k := lightStem(base + "e")
	if k == stem || len(k) < minWordRunes || isStopword(k) { // thing → the
		return ""
	}
	return k
}

// isJoined reports whether a word token is a joined name (see isJoiner):
// names are not stemmed.
func isJoined(tok string) bool { return strings.ContainsAny(tok, "_-.") }
