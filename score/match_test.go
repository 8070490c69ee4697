package score

import (
	"slices"
	"testing"
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
		{"caching", "cache", false},
		{"deploy", "deployying", false},
		{"خادم", "الخادمة", true},
		{"patch", "patches", true},
		{"build", "buildings", true},
		{"deployed", "deploy", false},
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
		// The index relies on keys(f) being exactly the tokens that match f.
		if got := slices.Contains(appendKeys(nil, tt.f), tt.q); got != tt.want {
			t.Errorf("appendKeys(%q) contains %q = %v, want %v", tt.f, tt.q, got, tt.want)
		}
	}
}
