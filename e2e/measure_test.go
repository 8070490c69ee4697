package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/agent"
	"github.com/memrecall/memrecall/e2e/fakemodel"
)

func TestBodyMark(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"after frontmatter", "---\nname: a\ntype: project\n---\n\nFirst line.\nSecond.", "First line."},
		{"heading skipped", "---\nname: a\n---\n# Title\n\n  Body here  \n", "Body here"},
		{"no frontmatter", "Just text\nmore", "Just text"},
		{"cut at 48 runes", "---\n---\n" + strings.Repeat("é", 60), strings.Repeat("é", 48)},
		{"empty body", "---\nname: a\n---\n\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := bodyMark([]byte(tc.file)); got != tc.want {
				t.Errorf("bodyMark = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLoadDocsExampleTree(t *testing.T) {
	for _, tree := range []string{"project", "user", "claude"} {
		dir := filepath.Join("..", "examples", "memory", tree)
		t.Run(tree, func(t *testing.T) {
			docs, err := LoadDocs(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) < 5 {
				t.Fatalf("%d docs in the example tree", len(docs))
			}
			seen := map[string]string{}
			for _, d := range docs {
				if d.Name == "MEMORY.md" || d.Mark == "" {
					t.Errorf("doc %+v", d)
				}
				if other, dup := seen[d.Mark]; dup {
					t.Errorf("%s and %s share the mark %q: the measurement could not tell them apart", other, d.Name, d.Mark)
				}
				seen[d.Mark] = d.Name
			}
			index, err := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range docs {
				if strings.Contains(string(index), d.Mark) {
					t.Errorf("the index holds the mark of %s", d.Name)
				}
			}
		})
	}
}

func TestText(t *testing.T) {
	body := `{"messages":[{"role":"user","content":[{"type":"text","text":"a &lt;b&gt; \u00e9"}]}],"n":3,"system":"sys"}`
	got := Text([]byte(body))
	for _, want := range []string{"a <b> é", "sys"} {
		if !strings.Contains(got, want) {
			t.Errorf("Text = %q, lacks %q", got, want)
		}
	}
	if got := Text([]byte("not json")); got != "not json" {
		t.Errorf("Text of a non-JSON body = %q", got)
	}
}

func FuzzText(f *testing.F) {
	f.Add([]byte(`{"a":["x &amp; y",{"b":"z"}]}`))
	f.Add([]byte(`[1,2,"three"]`))
	f.Add([]byte(`{"a":`))
	f.Fuzz(func(t *testing.T, body []byte) {
		got := Text(body)
		var s string
		if json.Unmarshal(body, &s) == nil && !strings.Contains(s, "&") && !strings.Contains(got, s) {
			t.Errorf("Text(%q) = %q lost the string", body, got)
		}
	})
}

// req builds a logged request with a JSON body holding text.
func req(kind fakemodel.Kind, tools []string, toolResult bool, text string) fakemodel.Request {
	body, _ := json.Marshal(map[string]any{"text": text})
	return fakemodel.Request{Kind: kind, Tools: tools, ToolResult: toolResult, Body: body}
}

func TestMeasure(t *testing.T) {
	docs := []Doc{{Name: "a.md", Mark: "alpha body"}, {Name: "b.md", Mark: "beta body"}, {Name: "c.md", Mark: "gamma body"}}
	tools := []string{"Bash", "Read"}
	for _, tc := range []struct {
		name string
		reqs []fakemodel.Request
		want Delivery
	}{
		{"tool-free, index only", []fakemodel.Request{
			req(fakemodel.KindText, tools, false, "- [A](a.md) index\nprompt"),
		}, Delivery{Main: 1, Index: true}},
		{"selector and side requests are not main", []fakemodel.Request{
			req(fakemodel.KindSelector, []string{"respond_in_schema"}, false, "alpha body beta body"),
			req(fakemodel.KindText, nil, false, "title alpha body"),
			req(fakemodel.KindToolCall, tools, false, "alpha body"),
			req(fakemodel.KindFinal, tools, true, "alpha body … gamma body"),
		}, Delivery{Main: 2, First: []string{"a.md"}, ToolTurn: true, AfterTool: []string{"c.md"}}},
		{"nothing new after the tool", []fakemodel.Request{
			req(fakemodel.KindToolCall, tools, false, "beta body"),
			req(fakemodel.KindFinal, tools, true, "beta body"),
		}, Delivery{Main: 2, First: []string{"b.md"}, ToolTurn: true, AfterTool: []string{}}},
		{"no main request", nil, Delivery{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Measure(tc.reqs, docs, "- [A](a.md) index")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSlugs(t *testing.T) {
	for _, tc := range []struct{ root, claude, gemini string }{
		{"/tmp/x/billing-api", "-tmp-x-billing-api", "billing-api"},
		{"/home/u/My Project_2", "-home-u-My-Project-2", "my-project-2"},
		{"/srv/---", "-srv----", "project"},
		{"/w/项目", "-w---", "project"},
	} {
		if got := Slug(tc.root); got != tc.claude {
			t.Errorf("Slug(%q) = %q, want %q", tc.root, got, tc.claude)
		}
		if got := GeminiSlug(tc.root); got != tc.gemini {
			t.Errorf("GeminiSlug(%q) = %q, want %q", tc.root, got, tc.gemini)
		}
	}
}

func TestGeminiMemoryDirsRegisterProjects(t *testing.T) {
	home := t.TempDir()
	a := GeminiCLI()
	p1, _, err := a.MemoryDirs(home, "/w/one")
	if err != nil {
		t.Fatal(err)
	}
	p2, _, err := a.MemoryDirs(home, "/w/two")
	if err != nil {
		t.Fatal(err)
	}
	if p1 != filepath.Join(home, ".gemini", "tmp", "one", "memory") || p2 != filepath.Join(home, ".gemini", "tmp", "two", "memory") {
		t.Errorf("dirs %s %s", p1, p2)
	}
	data, err := os.ReadFile(filepath.Join(home, ".gemini", "projects.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct{ Projects map[string]string }
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"/w/one": "one", "/w/two": "two"}, reg.Projects); diff != "" {
		t.Errorf("projects.json (-want +got):\n%s", diff)
	}
	marker, err := os.ReadFile(filepath.Join(home, ".gemini", "tmp", "two", ".project_root"))
	if err != nil || string(marker) != "/w/two" {
		t.Errorf("marker %q (%v)", marker, err)
	}
}

func TestReplaceTable(t *testing.T) {
	doc := "intro\n" + TableBegin + "\nold\n" + TableEnd + "\nrest\n"
	got, err := ReplaceTable(doc, "new\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "intro\n" + TableBegin + "\nnew\n" + TableEnd + "\nrest\n"; got != want {
		t.Errorf("ReplaceTable = %q, want %q", got, want)
	}
	if _, err := ReplaceTable("no markers", "x"); err != ErrNoMarkers {
		t.Errorf("err %v, want ErrNoMarkers", err)
	}
}

func TestRenderTable(t *testing.T) {
	got := RenderTable([]Row{
		{Agent: "claude", Mode: "native", Prompt: "a|b", Tools: true, Delivery: Delivery{Index: true, ToolTurn: true, AfterTool: []string{}}},
		{Agent: "qwen", Mode: "memrecall", Prompt: "p", Delivery: Delivery{First: []string{"x.md", "sub/y.md"}}},
		{Agent: "gemini", Mode: "memrecall", Prompt: "p", Err: "agent not installed"},
	})
	want := "| agent | mode | prompt | turn | first request | after the tool result |\n" +
		"|---|---|---|---|---|---|\n" +
		"| claude | native | a\\|b | tool-using | index + no document | + no document |\n" +
		"| qwen | memrecall | p | tool-free | `x`, `sub/y` | — |\n" +
		"| gemini | memrecall | p | tool-free | not measured: agent not installed | — |\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLocateAgreesWithTheWorld: memrecall's agent.Locate finds the memory
// directories where the harness puts them, which TestNativeBaseline shows
// are where each real agent reads its index from.
func TestLocateAgreesWithTheWorld(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipping: no git")
	}
	for _, a := range AllAgents() {
		t.Run(a.Name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			w, err := NewWorld(dir, "billing-api", a, "", "")
			if err != nil {
				t.Fatal(err)
			}
			name, err := agent.ParseName(a.Name)
			if err != nil {
				t.Fatal(err)
			}
			roots, err := agent.Locate(name, w.Project, agent.Env{Home: w.Home})
			if err != nil {
				t.Fatal(err)
			}
			got := [2]string{roots.Project, roots.User}
			want := [2]string{w.ProjectMemory, w.UserMemory}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("agent.Locate (-harness +memrecall):\n%s\nwhy: %q", diff, roots.Why)
			}
		})
	}
}

func TestMergeTable(t *testing.T) {
	head := "| agent | mode |\n|---|---|\n"
	old := head + "| claude | old |\n| gemini | old |\n| qwen | old |\n"
	fresh := head + "| claude | new |\n"
	got := MergeTable(old, fresh, []string{"claude", "gemini", "qwen"}, []string{"claude"})
	want := head + "| claude | new |\n| gemini | old |\n| qwen | old |\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	sec, err := TableSection("a" + TableBegin + "\nT\n" + TableEnd)
	if err != nil || sec != "\nT\n" {
		t.Errorf("TableSection = %q, %v", sec, err)
	}
}
