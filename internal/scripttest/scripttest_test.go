package scripttest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     []Case
		wantTail []string
		wantErr  bool
	}{
		{
			name: "command, input, output, trailing comment",
			text: "# a comment\ntree\nproject a.md type=user\n----\nwrote a\n\nquery text=x\n----\n\n# done\n",
			want: []Case{
				{Line: 2, Pre: []string{"# a comment", "tree", "project a.md type=user"}, Cmd: "tree",
					Input: []string{"project a.md type=user"}, Expected: []string{"wrote a"}},
				{Line: 7, Pre: []string{"query text=x"}, Cmd: "query text=x"},
			},
			wantTail: []string{"# done"},
		},
		{name: "separator without a command", text: "# only a comment\n----\nx\n", wantErr: true},
		{name: "command without a separator", text: "initial\n", wantErr: true},
		{name: "empty", text: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, tail, err := Parse(tt.text)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("cases (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantTail, tail); diff != "" {
				t.Errorf("tail (-want +got):\n%s", diff)
			}
		})
	}
}
