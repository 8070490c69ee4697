package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/recall"
	"github.com/memrecall/memrecall/telemetry"
)

// The --json output of scan and query is a stable interface for scripts
// (docs/cli-json.md): fields are added, never renamed or removed, and a
// change that breaks a reader changes the schema name. Durations are
// integer microseconds in fields ending in _us; paths are the roots as
// given and documents' scope-relative paths; times are RFC 3339 UTC.
const (
	scanSchema  = "memrecall.scan/v1"
	querySchema = "memrecall.query/v1"
)

type rootsJSON struct {
	Project string   `json:"project"`
	User    string   `json:"user"`
	Why     []string `json:"why"`
}

type docJSON struct {
	Scope       string `json:"scope"`
	Type        string `json:"type"`
	Path        string `json:"path"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Modified    string `json:"modified"`
	Size        int64  `json:"size"`
}

type scanJSON struct {
	Schema    string         `json:"schema"`
	Roots     rootsJSON      `json:"roots"`
	Documents []docJSON      `json:"documents"`
	Skipped   map[string]int `json:"skipped"`
	Stats     struct {
		Dirs       int   `json:"dirs"`
		TopicFiles int   `json:"topic_files"`
		Read       int   `json:"read"`
		Reused     int   `json:"reused"`
		Workers    int   `json:"workers"`
		DurationUS int64 `json:"duration_us"`
	} `json:"stats"`
}

type rankedJSON struct {
	Rank  int     `json:"rank"`
	Score int     `json:"score"`
	Doc   docJSON `json:"document"`
}

type deliveryJSON struct {
	Point     string   `json:"point"`
	Phase     string   `json:"phase"`
	Strategy  string   `json:"strategy"`
	Documents []string `json:"documents"`
	Text      string   `json:"text"`
}

type queryJSON struct {
	Schema     string         `json:"schema"`
	Query      string         `json:"query"`
	Tools      []string       `json:"tools"`
	Roots      rootsJSON      `json:"roots"`
	Scanned    int            `json:"documents_scanned"`
	Kept       int            `json:"documents_kept"`
	Skipped    map[string]int `json:"skipped"`
	Ranking    []rankedJSON   `json:"ranking"`
	Candidates struct {
		Total   int `json:"total"`
		Lexical int `json:"lexical"`
		Recent  int `json:"recent"`
	} `json:"candidates"`
	Manifest struct {
		Documents int `json:"documents"`
		Bytes     int `json:"bytes"`
	} `json:"manifest"`
	Selector struct {
		Model     string   `json:"model"`
		Strategy  string   `json:"strategy"`
		Selected  []string `json:"selected"`
		ErrorKind string   `json:"error_kind"`
	} `json:"selector"`
	Deliveries []deliveryJSON   `json:"deliveries"`
	Telemetry  []map[string]any `json:"telemetry"`
	Timings    struct {
		ScanUS        int64 `json:"scan_us"`
		PublishUS     int64 `json:"deterministic_result_us"`
		InitialWaitUS int64 `json:"initial_wait_us"`
		SelectorUS    int64 `json:"selector_us"`
		SettleUS      int64 `json:"settled_us"`
	} `json:"timings"`
}

func us(d time.Duration) int64 { return d.Microseconds() }

func docOf(d *memory.Document) docJSON {
	return docJSON{
		Scope: d.Scope.String(), Type: d.Type.String(), Path: d.RelPath,
		Title: d.Title, Description: d.Description,
		Modified: d.Modified.UTC().Format(time.RFC3339), Size: d.Size,
	}
}

// skipsJSON lists every reason, zero counts included, so a reader never
// has to know which reasons exist.
func skipsJSON(c memory.SkipCounts) map[string]int {
	m := map[string]int{}
	for _, r := range memory.SkipReasons() {
		m[r.String()] = c[r]
	}
	return m
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func writeScanJSON(w io.Writer, roots memory.Roots, why []string, res memory.Result) error {
	out := scanJSON{Schema: scanSchema, Roots: rootsJSON{roots.Project, roots.User, nonNil(why)},
		Documents: []docJSON{}, Skipped: skipsJSON(res.Skipped)}
	for _, d := range res.Docs {
		out.Documents = append(out.Documents, docOf(d))
	}
	s := res.Stats
	out.Stats.Dirs, out.Stats.TopicFiles, out.Stats.Read, out.Stats.Reused = s.Dirs, s.Listed, s.Read, s.Reused
	out.Stats.Workers, out.Stats.DurationUS = s.Workers, us(s.Duration)
	return writeJSON(w, out)
}

func writeQueryJSON(w io.Writer, roots memory.Roots, why []string, q recall.Query, selName string, r turn) error {
	tr := r.trace
	out := queryJSON{Schema: querySchema, Query: q.Text, Tools: nonNil(q.RecentTools),
		Roots: rootsJSON{roots.Project, roots.User, nonNil(why)}, Scanned: tr.Scanned, Kept: tr.Kept,
		Skipped: skipsJSON(tr.Skipped), Ranking: []rankedJSON{}, Deliveries: []deliveryJSON{},
		Telemetry: []map[string]any{}}
	for i, m := range tr.Ranked {
		out.Ranking = append(out.Ranking, rankedJSON{Rank: i + 1, Score: m.Score, Doc: docOf(m.Doc)})
	}
	lexical := lexicalCandidates(tr)
	out.Candidates.Total, out.Candidates.Lexical, out.Candidates.Recent = len(tr.Candidates), lexical, len(tr.Candidates)-lexical
	out.Manifest.Documents, out.Manifest.Bytes = manifestSize(tr, selName)
	out.Selector.Model, out.Selector.Strategy, out.Selector.ErrorKind = selName, tr.Strategy.String(), tr.ErrKind.String()
	out.Selector.Selected = []string{}
	for _, id := range tr.Selected {
		out.Selector.Selected = append(out.Selector.Selected, keyOf(id, tr))
	}
	for _, d := range []struct {
		point string
		inj   recall.Injection
	}{{"initial", r.initial}, {"tool_result", r.tool}} {
		if d.inj.Empty() {
			continue
		}
		dj := deliveryJSON{Point: d.point, Phase: d.inj.Phase.String(), Strategy: d.inj.Strategy.String(), Documents: []string{}, Text: d.inj.Text}
		for _, id := range d.inj.Docs {
			dj.Documents = append(dj.Documents, keyOf(id, tr))
		}
		out.Deliveries = append(out.Deliveries, dj)
	}
	for _, e := range r.events {
		out.Telemetry = append(out.Telemetry, eventJSON(e))
	}
	out.Timings.ScanUS, out.Timings.PublishUS, out.Timings.InitialWaitUS = us(tr.Scan), us(tr.Publish), us(r.initialWait)
	out.Timings.SelectorUS, out.Timings.SettleUS = us(tr.Selector), us(tr.Settle)
	return writeJSON(w, out)
}

// eventJSON is a telemetry event under the slog sink's keys, its message
// as "event" and durations as integer microseconds (key + "_us").
func eventJSON(e telemetry.Event) map[string]any {
	m := map[string]any{"event": e.Message()}
	for _, a := range e.Attrs() {
		switch a.Value.Kind() {
		case slog.KindDuration:
			m[a.Key+"_us"] = us(a.Value.Duration())
		case slog.KindInt64:
			m[a.Key] = a.Value.Int64()
		default:
			m[a.Key] = a.Value.String()
		}
	}
	return m
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
