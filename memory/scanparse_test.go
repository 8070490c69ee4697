package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestPropScanDocumentsEqualParse: every document a scan makes equals what
// parse (or, for a plain note, parsePlain) makes of the same file's bytes,
// read after the whole scan. The scan checks and normalises each file once
// and hands the same bytes to whichever reader takes them, while CRLF files
// are rewritten into a scratch buffer each worker reuses: a document that
// kept a view of that scratch or of the read buffer would show another
// file's bytes here. Files longer than the read limit are drawn too, and
// the scan packs the text into blocks (texts) or not.
func TestPropScanDocumentsEqualParse(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir, err := os.MkdirTemp("", "scanparse")
		if err != nil {
			rt.Fatal(err)
		}
		defer os.RemoveAll(dir)
		proj := filepath.Join(dir, "project")
		if err := os.MkdirAll(proj, 0o755); err != nil {
			rt.Fatal(err)
		}
		words := []string{"alpha", "日本語", "Ärger", "deploy", "テスト", "x", "名前", "  ", "\t", "# h"}
		n := rapid.IntRange(1, 24).Draw(rt, "files")
		for i := range n {
			var b strings.Builder
			body := rapid.SliceOfN(rapid.SampledFrom(words), 0, 40).Draw(rt, "body")
			if rapid.Bool().Draw(rt, "bom") {
				b.WriteString("\uFEFF")
			}
			if rapid.Bool().Draw(rt, "plain") {
				fmt.Fprintf(&b, "# note %d\n\n", i)
			} else {
				fmt.Fprintf(&b, "---\nname: n%d\ndescription: \"d\\t%d\"\ntype: project\n---\n", i, i)
			}
			b.WriteString(strings.Join(body, " "))
			if rapid.Bool().Draw(rt, "long") {
				b.WriteString(strings.Repeat("長い本文 ", ReadLimit/10))
			}
			b.WriteString("\n")
			content := b.String()
			if rapid.Bool().Draw(rt, "crlf") {
				content = strings.ReplaceAll(content, "\n", "\r\n")
			}
			if err := os.WriteFile(filepath.Join(proj, fmt.Sprintf("t%02d.md", i)), []byte(content), 0o644); err != nil {
				rt.Fatal(err)
			}
		}
		workers := rapid.IntRange(1, 3).Draw(rt, "workers")
		textsMin := rapid.SampledFrom([]int{0, textsMinFiles}).Draw(rt, "textsMin")
		res, err := Scan(context.Background(), Roots{Project: proj, PlainProject: true}, WithWorkers(workers), withTextsMin(textsMin))
		if err != nil {
			rt.Fatal(err)
		}
		if len(res.Docs) != n {
			rt.Fatalf("scan made %d documents of %d files (skipped %v)", len(res.Docs), n, res.Skipped)
		}
		for _, d := range res.Docs {
			data, err := os.ReadFile(filepath.Join(proj, d.RelPath))
			if err != nil {
				rt.Fatal(err)
			}
			prefix := data[:min(len(data), ReadLimit)]
			complete := len(prefix) == len(data)
			want, _, err := parse(prefix, complete, nil)
			if err == ErrNoFrontmatter {
				want, _, err = parsePlain(prefix, complete, nil, d.RelPath, TypeProject)
			}
			if err != nil {
				rt.Fatalf("%s: parse: %v", d.RelPath, err)
			}
			got := Parsed{Type: d.Type, Title: d.Title, Description: d.Description, Body: d.Body, BodyTruncated: d.BodyTruncated}
			if diff := cmp.Diff(want, got); diff != "" {
				rt.Errorf("%s: scanned document differs from parse (-parse +scan):\n%s", d.RelPath, diff)
			}
		}
	})
}
