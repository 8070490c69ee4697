package recall

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/memrecall/memrecall/memory"
)

var testNow = time.Date(2026, 6, 10, 15, 0, 0, 0, time.UTC)

func TestRenderInjectionGolden(t *testing.T) {
	docs := []*memory.Document{
		{
			ID: "/p/deploy.md", Scope: memory.ScopeProject, RelPath: "ops/deploy.md",
			Type: memory.TypeReference, Title: "Deploy checklist",
			Description: "Steps before a release",
			Body:        "Run `make release`.\n```\nnot a real fence end\n```",
			Modified:    testNow.Add(-3 * 24 * time.Hour),
		},
		{
			ID: "/u/tabs.md", Scope: memory.ScopeUser, RelPath: "tabs.md",
			Type: memory.TypeUser, Title: "Prefers tabs\n## injected heading",
			Modified: testNow.Add(-time.Hour),
		},
	}
	want := "# Saved memories\n\n" + injectInstruction +
		"\n## 1. Deploy checklist\n" +
		"project memory: ops/deploy.md (saved 3 days ago)\n" +
		"Description: Steps before a release\n" +
		"~~~memory\nRun `make release`.\n```\nnot a real fence end\n```\n~~~\n" +
		"\n## 2. Prefers tabs ## injected heading\n" +
		"user memory: tabs.md (saved today)\n" +
		"(no body)\n"
	if diff := cmp.Diff(want, renderInjection(docs, testNow)); diff != "" {
		t.Errorf("renderInjection mismatch (-want +got):\n%s", diff)
	}
}

func TestRenderInjectionEmpty(t *testing.T) {
	if got := renderInjection(nil, testNow); got != "" {
		t.Errorf("renderInjection(nil) = %q, want empty", got)
	}
}

func TestRenderBodyWindowNote(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		truncated bool
		wantNote  bool
		wantRunes int
	}{
		{"short", "abc", false, false, 3},
		{"exactly window", strings.Repeat("é", memory.BodyWindow), false, false, memory.BodyWindow},
		{"over window", strings.Repeat("漢", memory.BodyWindow+5), false, true, memory.BodyWindow},
		{"file continues", "abc", true, true, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &memory.Document{Title: "t", RelPath: "a.md", Body: tt.body, BodyTruncated: tt.truncated, Modified: testNow}
			out := renderBlock(1, d, testNow, maxDescRunes, memory.BodyWindow, false)
			if got := strings.Contains(out, "(body cut at 1,200 characters"); got != tt.wantNote {
				t.Errorf("note present = %v, want %v\n%s", got, tt.wantNote, out)
			}
			body := fencedBodies(t, out)
			if len(body) != 1 {
				t.Fatalf("got %d fenced bodies, want 1:\n%s", len(body), out)
			}
			if got := utf8.RuneCountInString(body[0]); got != tt.wantRunes {
				t.Errorf("body shows %d runes, want %d", got, tt.wantRunes)
			}
		})
	}
}

func TestSavedAgo(t *testing.T) {
	tests := []struct {
		mod  time.Time
		want string
	}{
		{testNow, "saved today"},
		{testNow.Add(time.Hour), "saved today"},
		{testNow.Add(-16 * time.Hour), "saved yesterday"},
		{testNow.Add(-72 * time.Hour), "saved 3 days ago"},
		{testNow.AddDate(-1, 0, 0), "saved 365 days ago"},
		{time.Time{}, "save time unknown"},
	}
	for _, tt := range tests {
		if got := savedAgo(tt.mod, testNow); got != tt.want {
			t.Errorf("savedAgo(%v) = %q, want %q", tt.mod, got, tt.want)
		}
	}
}

func TestDisplayPathKeepsTail(t *testing.T) {
	long := strings.Repeat("ü/", 400) + "file.md"
	got := displayPath(long)
	if len(got) > maxPathBytes+len("…") || !strings.HasSuffix(got, "/file.md") || !utf8.ValidString(got) {
		t.Errorf("displayPath(long) = %q (%d bytes)", got, len(got))
	}
}

// genDoc draws a document whose text stresses the renderer: multi-byte
// runes, runs of fence characters, newlines in titles.
func genDoc(t *rapid.T, i int) *memory.Document {
	alphabet := rapid.SampledFrom([]rune{'a', ' ', '\n', '`', '~', 'é', '漢', '\U0001F600', '#', '-'})
	text := func(label string, maxRunes int) string {
		rs := rapid.SliceOfN(alphabet, 0, maxRunes).Draw(t, label)
		return string(rs)
	}
	return &memory.Document{
		ID:            memory.ID("/m/" + strings.Repeat("x", i+1)),
		Scope:         rapid.SampledFrom([]memory.Scope{memory.ScopeProject, memory.ScopeUser}).Draw(t, "scope"),
		RelPath:       text("path", 400),
		Type:          memory.TypeProject,
		Title:         text("title", 300),
		Description:   text("desc", 700),
		Body:          text("body", 2*memory.BodyWindow),
		BodyTruncated: rapid.Bool().Draw(t, "truncated"),
		Modified:      testNow.Add(-time.Duration(rapid.IntRange(0, 1000).Draw(t, "hours")) * time.Hour),
	}
}

// TestRenderInjectionProperties checks, for arbitrary documents, that the
// text is within the byte budget, valid UTF-8, shows every document exactly
// once in order, and that every fenced body is a prefix of the document's
// body (nothing inside a body closed its fence early).
func TestRenderInjectionProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, MaxPromptDocs).Draw(t, "docs")
		docs := make([]*memory.Document, n)
		for i := range docs {
			docs[i] = genDoc(t, i)
		}
		out := renderInjection(docs, testNow)
		if len(out) > MaxPromptBytes {
			t.Fatalf("text is %d bytes, budget %d", len(out), MaxPromptBytes)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("text is not valid UTF-8")
		}
		if !strings.HasPrefix(out, injectHeading) {
			t.Fatalf("text does not start with the heading")
		}
		headings := 0
		bodies, outside := parseFences(t, out)
		for _, line := range outside {
			if strings.HasPrefix(line, "## ") {
				headings++
				if want := "## " + string(rune('0'+headings)) + ". "; !strings.HasPrefix(line, want) {
					t.Fatalf("heading %q, want prefix %q", line, want)
				}
			}
		}
		if headings != n {
			t.Fatalf("%d document headings, want %d", headings, n)
		}
		bi := 0
		for _, d := range docs {
			if d.Body == "" {
				continue
			}
			if bi >= len(bodies) {
				break // a squeezed body may show no fence at all
			}
			if strings.HasPrefix(d.Body, bodies[bi]) {
				bi++
			}
		}
		if bi != len(bodies) {
			t.Fatalf("fenced bodies are not prefixes of the documents' bodies in order: %q", bodies)
		}
	})
}

// fencedBodies extracts the contents of the memory fences from a rendered
// text, reading fences the CommonMark way: a fence closes only on a line
// that is the same character repeated at least as often.
func fencedBodies(t interface{ Fatalf(string, ...any) }, out string) []string {
	bodies, _ := parseFences(t, out)
	return bodies
}

// parseFences splits a rendered text into the fenced bodies and the lines
// outside any fence.
func parseFences(t interface{ Fatalf(string, ...any) }, out string) (bodies, outside []string) {
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		fence := strings.TrimSuffix(l, "memory")
		if !strings.HasSuffix(l, "memory") || len(fence) < 3 || strings.Trim(fence, fence[:1]) != "" || (fence[0] != '`' && fence[0] != '~') {
			outside = append(outside, l)
			continue
		}
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			c := strings.TrimRight(lines[i], " ")
			if len(c) >= len(fence) && strings.Trim(c, fence[:1]) == "" {
				closed = true
				break
			}
			body = append(body, lines[i])
		}
		if !closed {
			t.Fatalf("unclosed fence %q", fence)
		}
		bodies = append(bodies, strings.Join(body, "\n"))
	}
	return bodies, outside
}

func TestRenderInjectionSqueezesLongBodies(t *testing.T) {
	var docs []*memory.Document
	for i := range MaxPromptDocs {
		body := strings.Repeat("\U0001F600", memory.BodyWindow)
		if i == 0 {
			body = "short body" // fits its share and must stay whole
		}
		docs = append(docs, &memory.Document{
			Title: "doc", RelPath: "d.md", Body: body,
			Description: strings.Repeat("é", maxDescRunes), Modified: testNow,
		})
	}
	out := renderInjection(docs, testNow)
	if len(out) > MaxPromptBytes {
		t.Fatalf("text is %d bytes, budget %d", len(out), MaxPromptBytes)
	}
	bodies := fencedBodies(t, out)
	if len(bodies) != MaxPromptDocs || bodies[0] != "short body" {
		t.Fatalf("bodies = %d, first %q", len(bodies), bodies[0])
	}
	if got := strings.Count(out, "to fit the prompt budget"); got != MaxPromptDocs-1 {
		t.Errorf("%d budget notes, want %d", got, MaxPromptDocs-1)
	}
	// Water-filling gives the squeezed documents equal shares: their
	// bodies differ by at most one rune.
	lens := map[int]bool{}
	for _, b := range bodies[1:] {
		lens[utf8.RuneCountInString(b)] = true
	}
	if len(lens) > 1 {
		t.Errorf("squeezed body lengths differ: %v", lens)
	}
}

// FuzzRenderInjection feeds arbitrary memory text (titles, paths,
// descriptions, bodies come from files the user or an agent wrote) to the
// renderer: the text stays within the budget, valid UTF-8 in, valid out,
// one heading per document outside the fences, and every fenced body is a
// prefix of its document's body — nothing inside a body can close its
// block.
func FuzzRenderInjection(f *testing.F) {
	f.Add("Deploy", "ops/deploy.md", "steps", "Run `make`.\n```\nfence\n```", 3)
	f.Add("t\n## fake heading", "a.md", "", "~~~~\n````\n## not a heading", 1)
	f.Add("", "", "", "", 5)
	f.Add(strings.Repeat("漢", 300), strings.Repeat("é/", 200), strings.Repeat("\U0001F600", 600), strings.Repeat("`~", 1500), 5)
	f.Fuzz(func(t *testing.T, title, path, desc, body string, n int) {
		if !utf8.ValidString(title) || !utf8.ValidString(path) || !utf8.ValidString(desc) || !utf8.ValidString(body) {
			t.Skip("the scanner hands out valid UTF-8 only")
		}
		n = 1 + (n%MaxPromptDocs+MaxPromptDocs)%MaxPromptDocs
		docs := make([]*memory.Document, n)
		for i := range docs {
			docs[i] = &memory.Document{Title: title, RelPath: path, Description: desc, Body: strings.Repeat(body, i+1), Modified: testNow}
		}
		out := renderInjection(docs, testNow)
		if len(out) > MaxPromptBytes || !utf8.ValidString(out) {
			t.Fatalf("%d bytes, valid %v", len(out), utf8.ValidString(out))
		}
		bodies, outside := parseFences(t, out)
		headings := 0
		for _, l := range outside {
			if strings.HasPrefix(l, "## ") {
				headings++
			}
		}
		if headings != n {
			t.Fatalf("%d headings for %d documents:\n%s", headings, n, out)
		}
		for i, b := range bodies {
			if i < n && !strings.HasPrefix(docs[i].Body, b) {
				t.Fatalf("fenced body %d is not a prefix of its document's body", i)
			}
		}
	})
}
