package memory

import (
	"strings"
	"testing"
	"time"
)

// benchFlat is a topic file in the flat form, benchClaude the same content
// as Claude Code writes it (nested type, folded description), which the
// flat reader also takes, and benchYAML the Claude form with a flow list
// added, which only the YAML reader takes.
var (
	benchBody   = strings.Repeat("deploy the canary and watch latency ", 40)
	benchFlat   = []byte("---\nname: Deploy checklist\ndescription: how we ship the billing service safely\ntype: reference\n---\n" + benchBody)
	benchClaude = []byte("---\nname: deploy-checklist\ndescription: >-\n  how we ship the billing service\n  safely\nmetadata:\n  type: reference\n---\n" + benchBody + "\nSee [[release-freeze]].\n")
	benchYAML   = []byte("---\nname: deploy-checklist\ndescription: >-\n  how we ship the billing service\n  safely\nmetadata:\n  type: reference\n  tags: [deploy, billing]\n---\n" + benchBody + "\nSee [[release-freeze]].\n")
)

// BenchmarkParseForms times, inside every iteration and on the same file,
// the flat parser as it was before the YAML path (legacyParse, the
// reference), today's flat path, the Claude form of the same topic (which
// the flat reader takes too) and a Claude file only the YAML reader takes.
// It reports each per file and as ratios to the reference,
// so the ratios hold on a loaded machine where absolute times drift. Each
// figure is the fastest of its blocks of 64 parses.
func BenchmarkParseForms(b *testing.B) {
	const k = 64 // parses per timed block, so the clock's cost is noise
	block := func(f func([]byte, bool, []byte) (Parsed, []byte, error), data []byte) time.Duration {
		t0 := time.Now()
		for range k {
			if _, _, err := f(data, true, nil); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(t0)
	}
	// The fastest block of each is the least disturbed by other work on
	// the machine: compare minima, not sums.
	legacy, flat, claude, yml := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
	b.ReportAllocs()
	odd := false
	for b.Loop() {
		// Alternate the order so neither side always runs first.
		if odd {
			flat = min(flat, block(parse, benchFlat))
			legacy = min(legacy, block(legacyParse, benchFlat))
		} else {
			legacy = min(legacy, block(legacyParse, benchFlat))
			flat = min(flat, block(parse, benchFlat))
		}
		claude = min(claude, block(parse, benchClaude))
		yml = min(yml, block(parse, benchYAML))
		odd = !odd
	}
	n := float64(k)
	b.ReportMetric(float64(legacy.Nanoseconds())/n, "legacy-ns/file")
	b.ReportMetric(float64(flat.Nanoseconds())/n, "flat-ns/file")
	b.ReportMetric(float64(claude.Nanoseconds())/n, "claude-ns/file")
	b.ReportMetric(float64(yml.Nanoseconds())/n, "yaml-ns/file")
	b.ReportMetric(float64(claude)/float64(legacy), "claude/legacy")
	b.ReportMetric(float64(flat)/float64(legacy), "flat/legacy")
	b.ReportMetric(float64(yml)/float64(legacy), "yaml/legacy")
}

// BenchmarkParseFlatAllocs and BenchmarkParseClaudeAllocs report each
// path's allocations per file (BenchmarkParseForms mixes them).
func BenchmarkParseFlatAllocs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parse(benchFlat, true, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseClaudeAllocs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parse(benchClaude, true, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseYAMLAllocs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, r, _, err := parseRoute(benchYAML, true, nil, false); err != nil || r != routeYAML {
			b.Fatal(r, err)
		}
	}
}

// BenchmarkClaudeFormReaders times the same Claude-form file (benchClaude)
// read by the line reader, as Parse reads it, and by the YAML library, as
// every Claude file was read before decision 0105 taught the line reader
// its two nested shapes: blocks of 64 parses of each, alternating, fastest
// block of each. yaml/line is the ratio.
func BenchmarkClaudeFormReaders(b *testing.B) {
	const k = 64
	block := func(yamlOnly bool) time.Duration {
		t0 := time.Now()
		for range k {
			if _, _, _, err := parseRoute(benchClaude, true, nil, yamlOnly); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(t0)
	}
	line, yml := time.Duration(1<<62), time.Duration(1<<62)
	odd := false
	for b.Loop() {
		if odd {
			yml = min(yml, block(true))
			line = min(line, block(false))
		} else {
			line = min(line, block(false))
			yml = min(yml, block(true))
		}
		odd = !odd
	}
	b.ReportMetric(float64(line.Nanoseconds())/k, "line-ns/file")
	b.ReportMetric(float64(yml.Nanoseconds())/k, "yaml-ns/file")
	b.ReportMetric(float64(yml)/float64(line), "yaml/line")
}
