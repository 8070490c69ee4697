package agent

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseName(t *testing.T) {
	tests := []struct {
		in      string
		want    Name
		wantErr error
	}{
		{"claude", Claude, nil},
		{"Gemini", Gemini, nil},
		{" qwen\n", Qwen, nil},
		{"", "", ErrUnknownAgent},
		{"codex", "", ErrUnknownAgent},
		{"claude-code", "", ErrUnknownAgent},
	}
	for _, tt := range tests {
		got, err := ParseName(tt.in)
		if got != tt.want || !errors.Is(err, tt.wantErr) {
			t.Errorf("ParseName(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestNamesParseBack(t *testing.T) {
	var got []Name
	for _, n := range Names() {
		p, err := ParseName(n.String())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	if diff := cmp.Diff(Names(), got); diff != "" {
		t.Errorf("names do not parse back (-want +got):\n%s", diff)
	}
}
