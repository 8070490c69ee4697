package agentpins

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []Pin
		err        error
	}{
		{"comments and blanks", "# x\n\n a @s/a 1.2.3 \n", []Pin{{"a", "@s/a", "1.2.3"}}, nil},
		{"two", "a p 1\nb q 2\n", []Pin{{"a", "p", "1"}, {"b", "q", "2"}}, nil},
		{"empty", "", nil, nil},
		{"two fields", "a p\n", nil, ErrSyntax},
		{"four fields", "a p 1 x\n", nil, ErrSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parse(tc.text)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The shipped file pins each agent memrecall runs against, once.
func TestShippedPins(t *testing.T) {
	pins, err := All()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range pins {
		if seen[p.Name] {
			t.Errorf("%s pinned twice", p.Name)
		}
		seen[p.Name] = true
		if !strings.HasPrefix(p.Package, "@") || p.Version == "" || strings.Contains(p.Spec(), " ") {
			t.Errorf("odd pin %+v", p)
		}
	}
	for _, name := range []string{"claude", "qwen", "gemini"} {
		if _, err := Get(name); err != nil {
			t.Error(err)
		}
	}
	if _, err := Get("nobody"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Get(nobody): %v, want ErrUnknown", err)
	}
}

// e2e/install.sh reads the same file: its dry run lists the pins Go
// reads.
func TestInstallScriptReadsPins(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, "../../e2e/install.sh", t.TempDir())
	cmd.Env = append(os.Environ(), "MEMRECALL_E2E_DRY_RUN=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pins, err := All()
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, p := range pins {
		want.WriteString(p.Name + " " + p.Package + " " + p.Version + "\n")
	}
	if diff := cmp.Diff(want.String(), string(out)); diff != "" {
		t.Errorf("e2e/install.sh reads other pins (-go +script):\n%s", diff)
	}
}

// TestInstalled: the version is read from the package.json npm wrote under
// the prefix; a missing, malformed or version-less one is an error.
func TestInstalled(t *testing.T) {
	pin := Pin{Name: "x", Package: "@scope/pkg", Version: "1.2.3"}
	for _, tc := range []struct {
		name, manifest string // "" manifest: none written
		want           string
		wantErr        bool
	}{
		{"installed", `{"name":"@scope/pkg","version":"1.2.3"}`, "1.2.3", false},
		{"another version", `{"version":"0.9.0"}`, "0.9.0", false},
		{"not installed", "", "", true},
		{"malformed", `{"version":`, "", true},
		{"no version", `{"name":"@scope/pkg"}`, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := t.TempDir()
			if tc.manifest != "" {
				path := pin.Manifest(prefix)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tc.manifest), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := pin.Installed(prefix)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("Installed = %q, %v; want %q, error %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}
