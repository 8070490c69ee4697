package memory

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	long := strings.Repeat("é", BodyWindow+10)
	tests := []struct {
		name string
		in   string
		want Parsed
		err  error
	}{
		{
			name: "bare values",
			in:   "---\nname: Deploy\ndescription: how we ship\ntype: reference\n---\nbody text\n",
			want: Parsed{Type: TypeReference, Title: "Deploy", Description: "how we ship", Body: "body text"},
		},
		{
			name: "double quoted with escapes",
			in:   "---\nname: \"say \\\"hi\\\" \\\\ now\"\ndescription: \"two\\nlines\\q\"\ntype: \"user\"\n---\nb",
			want: Parsed{Type: TypeUser, Title: `say "hi" \ now`, Description: "two\nlines\\q", Body: "b"},
		},
		{
			name: "single quoted with doubled quote",
			in:   "---\nname: 'it''s here'\ndescription: 'a \"b\" \\n'\ntype: 'feedback'\n---\nb",
			want: Parsed{Type: TypeFeedback, Title: "it's here", Description: `a "b" \n`, Body: "b"},
		},
		{
			name: "unterminated quote is bare",
			in:   "---\nname: \"half\ntype: project\n---\n",
			want: Parsed{Type: TypeProject, Title: `"half`},
		},
		{
			name: "text after closing quote is ignored",
			in:   "---\nname: \"quoted\" # comment\ntype: project\n---\n",
			want: Parsed{Type: TypeProject, Title: "quoted"},
		},
		{
			name: "CRLF",
			in:   "---\r\nname: Win\r\ntype: user\r\n---\r\nline one\r\nline two\r\n",
			want: Parsed{Type: TypeUser, Title: "Win", Body: "line one\nline two"},
		},
		{
			name: "BOM and trailing blanks on fences",
			in:   "\uFEFF---  \ntype: user\n--- \t\nb",
			want: Parsed{Type: TypeUser, Title: "user", Body: "b"},
		},
		{
			name: "unknown keys, comments, nested values ignored",
			in:   "---\n# a comment\nmetadata:\n  type: reference\n  name: nested\nowner: sam\ntags: [a, b]\n\ntype: project\n---\nb",
			want: Parsed{Type: TypeProject, Title: "project", Body: "b"},
		},
		{
			name: "title fallback",
			in:   "---\ntitle: From title\ntype: user\n---\n",
			want: Parsed{Type: TypeUser, Title: "From title"},
		},
		{
			name: "name wins over title",
			in:   "---\ntitle: T\nname: N\ntype: user\n---\n",
			want: Parsed{Type: TypeUser, Title: "N"},
		},
		{
			name: "empty name falls back to title",
			in:   "---\nname:\ntitle: T\ntype: user\n---\n",
			want: Parsed{Type: TypeUser, Title: "T"},
		},
		{
			name: "type fallback",
			in:   "---\ntype: reference\n---\n",
			want: Parsed{Type: TypeReference, Title: "reference"},
		},
		{
			name: "last repeated key wins",
			in:   "---\ntype: user\ntype: feedback\n---\n",
			want: Parsed{Type: TypeFeedback, Title: "feedback"},
		},
		{
			name: "closing fence at end of file without newline",
			in:   "---\ntype: user\n---",
			want: Parsed{Type: TypeUser, Title: "user"},
		},
		{
			name: "colon in value",
			in:   "---\ndescription: see https://example.com:8080/x\ntype: user\n---\n",
			want: Parsed{Type: TypeUser, Title: "user", Description: "see https://example.com:8080/x"},
		},
		{
			name: "placeholder body is empty",
			in:   "---\ntype: project\n---\n\n_No entries yet._\n\n",
			want: Parsed{Type: TypeProject, Title: "project"},
		},
		{
			name: "body trimmed of unicode space",
			in:   "---\ntype: project\n---\n\u3000 text \u00a0\n",
			want: Parsed{Type: TypeProject, Title: "project", Body: "text"},
		},
		{
			name: "body past the window is kept, marked truncated for the prompt",
			in:   "---\ntype: project\n---\n" + long,
			want: Parsed{Type: TypeProject, Title: "project", Body: long, BodyTruncated: true},
		},
		{
			name: "body of exactly the window is whole",
			in:   "---\ntype: project\n---\n" + long[:2*BodyWindow],
			want: Parsed{Type: TypeProject, Title: "project", Body: long[:2*BodyWindow]},
		},
		{
			name: "CJK values",
			in:   "---\nname: 支付回调重试\ndescription: 'コード''レビュー'\ntype: project\n---\n본문",
			want: Parsed{Type: TypeProject, Title: "支付回调重试", Description: "コード'レビュー", Body: "본문"},
		},
		{name: "empty file", in: "", err: ErrNoFrontmatter},
		{name: "no frontmatter", in: "# Title\n\ntext\n", err: ErrNoFrontmatter},
		{name: "fence not on first line", in: "\n---\ntype: user\n---\n", err: ErrNoFrontmatter},
		{name: "four dashes", in: "----\ntype: user\n----\n", err: ErrNoFrontmatter},
		{name: "unterminated", in: "---\ntype: user\nbody\n", err: ErrUnterminatedFrontmatter},
		{name: "only opening fence", in: "---", err: ErrUnterminatedFrontmatter},
		{name: "missing type", in: "---\nname: x\n---\nb", err: ErrMissingType},
		{name: "empty type", in: "---\ntype:\n---\nb", err: ErrMissingType},
		{name: "unknown type", in: "---\ntype: note\n---\n", err: ErrUnknownType},
		{name: "type is case sensitive", in: "---\ntype: User\n---\n", err: ErrUnknownType},
		{
			// A mapping indented as a whole is still a mapping to YAML.
			name: "wholly indented mapping",
			in:   "---\n  type: user\n---\n",
			want: Parsed{Type: TypeUser, Title: "user"},
		},
		{name: "binary", in: "---\ntype: user\n---\n\x00\x01", err: ErrBinary},
		{name: "invalid UTF-8", in: "---\ntype: user\n---\n\xff\xfe", err: ErrInvalidUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if !errors.Is(err, tt.err) {
				t.Fatalf("Parse error = %v, want %v", err, tt.err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParsePrefix covers what only a scan sees: data cut at the read limit.
func TestParsePrefix(t *testing.T) {
	t.Run("frontmatter not closed is too long", func(t *testing.T) {
		_, _, err := parse([]byte("---\ntype: user\ndescription: aaaa"), false, nil)
		if !errors.Is(err, ErrFrontmatterTooLong) {
			t.Fatalf("err = %v, want ErrFrontmatterTooLong", err)
		}
	})
	t.Run("short body still marked truncated", func(t *testing.T) {
		p, _, err := parse([]byte("---\ntype: user\n---\nshort"), false, nil)
		if err != nil || !p.BodyTruncated || p.Body != "short" {
			t.Fatalf("got %+v, %v; want truncated body \"short\"", p, err)
		}
	})
	t.Run("rune cut by the limit is dropped", func(t *testing.T) {
		data := []byte("---\ntype: user\n---\nab漢")
		p, _, err := parse(data[:len(data)-1], false, nil)
		if err != nil || p.Body != "ab" {
			t.Fatalf("got %+v, %v; want body \"ab\"", p, err)
		}
	})
	t.Run("scratch is reused", func(t *testing.T) {
		scratch := make([]byte, 0, 64)
		_, out, err := parse([]byte("---\r\ntype: user\r\n---\r\nb\r\n"), true, scratch)
		if err != nil || cap(out) != 64 {
			t.Fatalf("cap(scratch) = %d, err %v; want the 64-byte buffer back", cap(out), err)
		}
	})
}

// TestParseStringsShareOneAllocation pins the zero-copy promise: a parse
// with no escapes and no CRLF allocates its strings once.
func TestParseStringsShareOneAllocation(t *testing.T) {
	data := []byte("---\nname: Deploy\ndescription: how we ship\ntype: reference\n---\nbody text\n")
	allocs := testing.AllocsPerRun(100, func() {
		if _, _, err := parse(data, true, nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 1 {
		t.Errorf("parse allocated %v times, want 1", allocs)
	}
}

// checkParsed holds the invariants every successful Parse must meet.
func checkParsed(t *testing.T, p Parsed) {
	t.Helper()
	if p.Type < TypeUser || p.Type > TypeReference {
		t.Errorf("Type = %v, not one of the four", p.Type)
	}
	if p.Title == "" {
		t.Error("Title is empty (the type is the last fallback)")
	}
	if n := utf8.RuneCountInString(p.Body); n > BodyWindow && !p.BodyTruncated {
		t.Errorf("Body has %d runes, more than BodyWindow, but is not marked truncated", n)
	}
	for _, s := range []string{p.Title, p.Description, p.Body} {
		if !utf8.ValidString(s) {
			t.Errorf("invalid UTF-8 in %q", s)
		}
	}
	if strings.TrimSpace(p.Body) != p.Body && !p.BodyTruncated {
		t.Errorf("Body %q is not trimmed", p.Body)
	}
	if strings.Contains(p.Body, "\r\n") {
		t.Errorf("Body %q keeps a CRLF", p.Body)
	}
}

func FuzzFrontmatter(f *testing.F) {
	for _, s := range []string{
		"---\nname: Deploy\ndescription: how we ship\ntype: reference\n---\nbody\n",
		"---\r\nname: \"a \\\"b\\\"\"\r\ntype: user\r\n---\r\nx\r\n",
		"---\nname: 'it''s'\ntype: feedback\n---\n_No entries yet._",
		"---\ntype: project\n",
		"---\ntype: bogus\n---\n",
		"\uFEFF---\ntitle: 漢字かなカナ한글\ntype: user\n---\n" + strings.Repeat("ไทย", 500),
		"no frontmatter",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err == nil {
			checkParsed(t, p)
		}
		// A prefix read by a scan must never fail where the whole file
		// parses, except by running out before the closing fence.
		for _, cut := range []int{len(data) / 2, len(data) - 1} {
			if cut < 0 {
				continue
			}
			q, _, perr := parse(data[:cut], false, nil)
			if perr == nil {
				checkParsed(t, q)
				if !q.BodyTruncated {
					t.Errorf("prefix parse of %q not marked truncated", data[:cut])
				}
				continue
			}
			if err == nil && !errors.Is(perr, ErrFrontmatterTooLong) && !errors.Is(perr, ErrBinary) {
				t.Errorf("whole file parses but its %d-byte prefix fails: %v", cut, perr)
			}
		}
	})
}

func TestWindowEnd(t *testing.T) {
	for _, s := range []string{
		"", "abc", strings.Repeat("a", 3000), strings.Repeat("é", 3000),
		strings.Repeat("abcdefg漢", 500), strings.Repeat("x", 1195) + "漢字かなカナ한글ไทย" + strings.Repeat("y", 100),
	} {
		for _, n := range []int{0, 1, 7, 8, 9, 1199, 1200, 1201} {
			got := windowEnd([]byte(s), n)
			want := len(s)
			if r := []rune(s); len(r) > n {
				want = len(string(r[:n]))
			}
			if got != want {
				t.Errorf("windowEnd(len %d, %d) = %d, want %d", len(s), n, got, want)
			}
		}
	}
}
