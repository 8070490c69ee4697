package score

import (
	"slices"
	"testing"

	"github.com/memrecall/memrecall/memory"
)

func TestMatches(t *testing.T) {
	tests := []struct {
		q, f string
		want bool
	}{
		{"owner", "owner", true},
		{"owner", "owners", true},
		{"owner", "ownership", false},
		{"deploy", "deployed", true},
		{"deploy", "deploying", true},
		{"deploy", "deploys", true},
		{"deploy", "deployment", false},
		{"deploy", "redeploy", false},
		{"use", "used", true},
		{"use", "user", false},
		{"use", "because", false},
		{"log", "login", false},
		{"log", "logging", true},
		{"log", "logged", true},
		{"log", "logger", false},
		{"stop", "stopped", true},
		{"plan", "planning", true},
		{"fix", "fixxing", false}, // x never doubles
		{"use", "using", true},
		{"configure", "configuring", true},
		{"configure", "configured", true},
		{"cache", "caching", true},
		{"caching", "cache", true}, // the silent-e key (0217)
		{"triaging", "triage", true},
		{"triaged", "triage", true},
		{"triaging", "triages", true},
		{"based", "base", true},
		{"coding", "code", true},
		{"coding", "cod", false},
		{"used", "use", true},
		{"thing", "the", false},    // a function word is no key
		{"running", "rune", false}, // a doubled consonant has no silent e
		{"noted", "note", true},
		{"note", "not", false},
		{"notes", "not", false},
		{"deploy", "deployying", false},
		{"خادم", "الخادمة", true},
		{"patch", "patches", true},
		{"build", "buildings", true},
		{"deployed", "deploy", true}, // both sides stemmed (0205)
		{"retries", "retry", true},
		{"retry", "retries", true},
		{"retrying", "retried", true},
		{"escalations", "escalation", true},
		{"processes", "process", true},
		{"settings", "set", true},
		{"status", "statu", false},
		{"class", "clas", false},
		{"note", "not", false},
		{"user", "use", false},
		{"deployments", "deploy", false},
		{"speeds", "speed", true},
		{"tries", "try", false}, // "tr" is too short a stem: "tries" is "trie"
		{"сервер", "сервера", true},
		{"сервер", "серверами", true},
		{"сервер", "серверного", false}, // four runes past the stem
		{"خادم", "الخادم", true},
		{"خادم", "الخادمات", true},
		{"الخادم", "خادم", false},
		{"servidor", "servidores", true},
		{"διακομιστ", "διακομιστή", true},
		{"サー", "サー", true},
		{"サー", "サーバ", false}, // bigrams match only exactly
		{"ab", "abs", false}, // short strings never extend
		{"données", "données", true},
	}
	for _, tt := range tests {
		if got := Matches(tt.q, tt.f); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.q, tt.f, got, tt.want)
		}
		// The index relies on keys(f) being exactly the stems of the
		// tokens that match f, or their silent-e keys.
		stem := lightStem(tt.q)
		e := silentEKey(tt.q, stem)
		keys := appendKeys(nil, tt.f)
		if got := slices.Contains(keys, stem) || e != "" && slices.Contains(keys, e); got != tt.want {
			t.Errorf("appendKeys(%q) contains %q or %q = %v, want %v", tt.f, stem, e, got, tt.want)
		}
	}
}

func TestLightStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"retries", "retry"}, {"retried", "retry"}, {"retrying", "retry"}, {"retry", "retry"},
		{"escalations", "escalation"}, {"processes", "process"}, {"process", "process"},
		{"logging", "log"}, {"logged", "log"}, {"logs", "log"}, {"stopped", "stop"},
		{"installing", "install"}, {"passed", "pass"}, {"added", "add"},
		{"status", "status"}, {"redis", "redis"}, {"class", "class"},
		{"settings", "set"}, {"things", "thing"}, {"speeds", "speed"}, {"embeddings", "embed"},
		// The over-stemming guard: a stem keeps four bytes but for a doubled
		// letter (added → add, logged → log).
		{"embed", "embed"}, {"string", "string"}, {"fixed", "fixed"}, {"embedded", "embed"},
		// British spellings meet American ones.
		{"colours", "color"}, {"catalogue", "catalog"}, {"artefacts", "artifact"},
		{"organised", "organiz"}, {"organized", "organiz"}, {"normalisation", "normalization"},
		{"travelling", "travel"}, {"traveling", "travel"}, {"analyse", "analyze"}, {"programme", "program"},
		{"need", "need"}, {"use", "use"}, {"using", "using"}, {"tries", "trie"},
		{"create_issues", "create_issues"}, {"сервера", "сервера"}, {"サーバ", "サーバ"},
		// A stem keeps three bytes: "ss" would be shorter than any token.
		{"sses", "sse"}, {"classes", "class"},
		// French singulars typed without accents meet their plurals, as
		// the English -ie words do.
		{"categorie", "category"}, {"categories", "category"}, {"category", "category"},
		{"sortie", "sorty"}, {"sorties", "sorty"}, {"cookie", "cooky"}, {"cookies", "cooky"},
		{"adresse", "adress"}, {"adresses", "adress"}, {"address", "address"},
		{"vitesse", "vitess"}, {"tie", "tie"}, {"trie", "trie"}, {"strasse", "strasse"},
	}
	for _, tt := range tests {
		if got := lightStem(tt.in); got != tt.want {
			t.Errorf("lightStem(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := lightStem(lightStem(tt.in)); got != lightStem(tt.in) {
			t.Errorf("lightStem is not idempotent on %q: %q", tt.in, got)
		}
		if q := NewQuery(tt.in, nil); q.Empty() {
			t.Errorf("the query %q has no token", tt.in)
		}
	}
}

// TestSingularMeetsPlural: a French word typed without accents meets its
// plural from either side, as English words do (docs/decisions/
// 0210-usage-titles-french-stems.md); the English -ie words do too.
func TestSingularMeetsPlural(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"categorie", "categories", true}, {"categories", "categorie", true},
		{"category", "categories", true}, {"categories", "category", true},
		{"sortie", "sorties", true}, {"sorties", "sortie", true},
		{"strategie", "strategies", true}, {"strategies", "strategy", true},
		{"adresse", "adresses", true}, {"adresses", "adresse", true},
		{"cookies", "cookie", true}, {"cookie", "cookies", true},
		{"address", "addresses", true}, {"addresses", "address", true},
		{"tie", "ties", true}, {"sortie", "sort", false}, {"adresse", "adrenaline", false},
	} {
		if got := Matches(tt.a, tt.b); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		q := NewQuery(tt.a, nil)
		d := &memory.Document{Type: memory.TypeProject, Title: tt.b}
		_, naive := RankNaive(q, []*memory.Document{d})
		_, index := NewIndex().Rank(q, []*memory.Document{d})
		if (len(naive) > 0) != tt.want || len(index) != len(naive) {
			t.Errorf("query %q, title %q: naive %d, index %d matches, want %v", tt.a, tt.b, len(naive), len(index), tt.want)
		}
	}
}
