package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Report is the result of an evaluation run, in the shape the command line
// prints (WriteMarkdown) and tools read (WriteJSON).
type Report struct {
	// Corpus describes what was evaluated.
	Corpus CorpusInfo `json:"corpus"`
	// RandomRecallAt5 is the query-blind floor, RandomRecallAt5(documents).
	RandomRecallAt5 float64 `json:"random_recall_at_5"`
	// Quality holds one row per scorer and slice (see QualityRows).
	Quality []QualityRow `json:"quality"`
	// Categories holds one row per scorer and case category
	// (CategoryRows); the Markdown tables leave them out.
	Categories []QualityRow `json:"categories"`
	// Misses lists, per scorer, the ids of the cases it failed (see
	// Outcome.Hit), in case order.
	Misses map[string][]string `json:"misses"`
	// Delivery holds one row per design, turn kind and selector latency;
	// empty when the delivery evaluation was not run.
	Delivery []DeliveryRow `json:"delivery"`
	// ManifestReach says, per slice, how much of the relevant documents
	// reached the selector's manifest; empty without delivery.
	ManifestReach []ReachRow `json:"manifest_reach"`

	outcomes []Outcome
}

// CorpusInfo names a corpus and its size.
type CorpusInfo struct {
	Name      string `json:"name"`
	Documents int    `json:"documents"`
	Cases     int    `json:"cases"`
}

// Options choose what Run measures.
type Options struct {
	// SkipDelivery leaves out the delivery evaluation.
	SkipDelivery bool
	// Delivery bounds the delivery evaluation.
	Delivery DeliveryOptions
}

// Run evaluates c: quality on every case for both scorers, then (unless
// skipped) delivery on a sample of its answerable cases.
func Run(ctx context.Context, c *Corpus, opts Options) (*Report, error) {
	sc, err := writeAndScan(ctx, c)
	if err != nil {
		return nil, err
	}
	defer sc.close()
	out, err := rankCases(ctx, c, sc.docs, sc.ids)
	if err != nil {
		return nil, err
	}
	r := &Report{
		Corpus:          CorpusInfo{Name: c.Name, Documents: len(c.Documents), Cases: len(c.Cases)},
		RandomRecallAt5: RandomRecallAt5(len(c.Documents)),
		Quality:         QualityRows(out, len(c.Documents)),
		Categories:      CategoryRows(out, len(c.Documents)),
		Misses:          map[string][]string{},
		Delivery:        []DeliveryRow{},
		ManifestReach:   []ReachRow{},
		outcomes:        out,
	}
	for _, s := range Scorers() {
		r.Misses[s] = []string{}
	}
	for i := range out {
		if o := &out[i]; !o.Hit() {
			r.Misses[o.Scorer] = append(r.Misses[o.Scorer], o.Case.ID)
		}
	}
	if !opts.SkipDelivery {
		d := opts.Delivery
		d.Conversations = true
		res, err := runDelivery(ctx, c, sc.tree, sc.ids, d)
		if err != nil {
			return nil, err
		}
		r.Delivery = append(r.Delivery, res.Rows...)
		r.ManifestReach = append(r.ManifestReach, res.Reach...)
	}
	return r, nil
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteMarkdown writes the quality table (scorers side by side per slice),
// the shipped scorer's misses and the delivery table.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Quality: %s\n\n", r.Corpus.Name)
	fmt.Fprintf(&b, "%d documents, %d cases. A query-blind random scorer reaches Recall@5 %s.\n",
		r.Corpus.Documents, r.Corpus.Cases, pct(&r.RandomRecallAt5))
	b.WriteString("Each cell is memrecall / legacy; — means the slice has no denominator for that metric.\n\n")
	b.WriteString("| slice | cases | Recall@5 | top-1 | no-result precision | no-result recall | candidate reduction |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	legacy := map[string]QualityRow{}
	for _, q := range r.Quality {
		if q.Scorer == ScorerLegacy {
			legacy[q.Slice] = q
		}
	}
	for _, m := range r.Quality {
		if m.Scorer != ScorerMemrecall {
			continue
		}
		l := legacy[m.Slice]
		name := m.Slice
		if m.Slice == SliceLexical || m.Slice == SliceOverall {
			name = "**" + name + "**"
		}
		fmt.Fprintf(&b, "| %s | %d | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |\n", name, m.Cases,
			pct(m.RecallAt5), pct(l.RecallAt5), pct(m.Top1), pct(l.Top1),
			pct(m.NoResultPrecision), pct(l.NoResultPrecision), pct(m.NoResultRecall), pct(l.NoResultRecall),
			pct(&m.CandidateReduction), pct(&l.CandidateReduction))
	}
	b.WriteString("\n")
	if misses := r.Misses[ScorerMemrecall]; len(misses) > 0 {
		fmt.Fprintf(&b, "Cases memrecall misses (%d; the semantic slice is expected here): %s\n\n",
			len(misses), strings.Join(misses, ", "))
	}
	if len(r.Delivery) > 0 {
		r.writeDelivery(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) writeDelivery(b *strings.Builder) {
	b.WriteString("## Delivery\n\n")
	fmt.Fprintf(b, "%d answerable cases per scenario, each one turn of a fresh session, with an ideal selector behind the modelled latency; ", r.Delivery[0].Turns)
	b.WriteString("duplicates and cross-query deliveries also count one conversation of all the cases per scenario. ")
	b.WriteString("Each cell is memrecall / zero-wait, memrecall first as in the quality table. *first request*: a relevant document is in the turn's first model request; ")
	b.WriteString("*delivered*: one reaches the model at any point of the turn; *relevant share*: the mean fraction of the relevant documents that do.\n\n")
	b.WriteString("| turn | selector | first request | delivered | relevant share | duplicates | cross-query |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	type key struct {
		turn string
		ms   int
	}
	base := map[key]DeliveryRow{}
	for _, d := range r.Delivery {
		if d.Design == DesignZeroWait {
			base[key{d.Turn, d.SelectorMS}] = d
		}
	}
	for _, m := range r.Delivery {
		if m.Design != DesignMemrecall {
			continue
		}
		z := base[key{m.Turn, m.SelectorMS}]
		fmt.Fprintf(b, "| %s | %d ms | %s / %s | %s / %s | %s / %s | %d / %d | %d / %d |\n", m.Turn, m.SelectorMS,
			pct(&m.FirstTurn), pct(&z.FirstTurn), pct(&m.Delivered), pct(&z.Delivered),
			pct(&m.RelevantShare), pct(&z.RelevantShare), m.Duplicates, z.Duplicates, m.CrossQuery, z.CrossQuery)
	}
	b.WriteString("\n")
	if len(r.ManifestReach) > 0 {
		b.WriteString("Relevant documents that reach the selector's manifest (the candidate set: lexical matches and the recent reserve):")
		for _, m := range r.ManifestReach {
			fmt.Fprintf(b, " %s %s;", m.Slice, pct(&m.Reach))
		}
		b.WriteString("\n\n")
	}
}

// pct formats a ratio as a percentage, or — when it has no denominator.
func pct(p *float64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f %%", *p*100)
}
