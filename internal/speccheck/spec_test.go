package speccheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// specRef finds a reference: "spec §5", "spec §5.4", "spec §3's". A
// section number is digits with optional ".digits" parts.
var specRef = regexp.MustCompile(`(?i)\bspec\s+§\s*([0-9]+(?:\.[0-9]+)*)`)

// specHeading finds a numbered heading of docs/spec.md: "## 5. The recall
// lifecycle", "### 5.4 The refined remainder".
var specHeading = regexp.MustCompile(`^#{2,4}\s+([0-9]+(?:\.[0-9]+)*)\.?\s`)

// root is the repository root, two levels above this package.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sections returns the section numbers of spec's headings.
func sections(spec string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(spec, "\n") {
		if m := specHeading.FindStringSubmatch(l); m != nil {
			out[m[1]] = true
		}
	}
	return out
}

// refs returns "path:line: §N" for every spec reference in text.
func refs(path, text string) []ref {
	var out []ref
	for i, l := range strings.Split(text, "\n") {
		for _, m := range specRef.FindAllStringSubmatch(l, -1) {
			out = append(out, ref{where: path + ":" + strconv.Itoa(i+1), section: m[1]})
		}
	}
	return out
}

type ref struct{ where, section string }

// TestSpecReferencesResolve walks every .go and .md file of the repository
// (the help text of cmd/memrecall is Go source) and fails for a spec
// reference whose section is not a heading of docs/spec.md.
func TestSpecReferencesResolve(t *testing.T) {
	t.Parallel()
	r := root(t)
	raw, err := os.ReadFile(filepath.Join(r, "docs", "spec.md"))
	if err != nil {
		t.Fatalf("the spec is missing: %v", err)
	}
	have := sections(string(raw))
	if len(have) < 9 {
		t.Fatalf("docs/spec.md has %d numbered headings; the reading of headings is broken", len(have))
	}
	var bad []string
	n := 0
	err = filepath.WalkDir(r, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != r && strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(r, path)
		for _, x := range refs(rel, string(b)) {
			n++
			if !have[x.section] {
				bad = append(bad, x.where+": spec §"+x.section)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("found no spec reference at all; the walk is broken")
	}
	slices.Sort(bad)
	if len(bad) > 0 {
		t.Errorf("%d of %d spec references name no heading of docs/spec.md:\n%s", len(bad), n, strings.Join(bad, "\n"))
	}
}

// TestSpecReferencePatterns pins what counts as a reference and as a
// heading, so a change to either pattern cannot silently match nothing.
func TestSpecReferencePatterns(t *testing.T) {
	t.Parallel()
	got := refs("x.go", "see spec §5.4, spec §3's rule and Spec § 8.\nnot a ref: §2 alone, specification §4")
	want := []ref{{"x.go:1", "5.4"}, {"x.go:1", "3"}, {"x.go:1", "8"}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(ref{})); diff != "" {
		t.Errorf("refs (-want +got):\n%s", diff)
	}
	heads := sections("# title\n## 5. The recall lifecycle\n### 5.4 The refined remainder\n## Notes\n#### 5.4.1 Detail\n")
	if diff := cmp.Diff(map[string]bool{"5": true, "5.4": true, "5.4.1": true}, heads); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
}
