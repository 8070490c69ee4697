package eval

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memrecall/memrecall/memory"
	"github.com/memrecall/memrecall/model"
)

// oracle is an ideal selector: after the modelled latency it answers the
// relevant documents of the query's case that the manifest holds, in
// manifest order, within the limit. It records each answer so the
// zero-wait replay can use the same selection.
type oracle struct {
	ids      map[memory.ID]string
	relevant map[string][]string // by caseKey

	mu      sync.Mutex
	answers map[string][]string // by caseKey
}

// caseKey identifies a query as the selector sees it: two cases may share
// a text and differ in their recent tools.
func caseKey(query string, tools []string) string {
	return query + "\x00" + strings.Join(tools, "\x00")
}

func newOracle(ids map[memory.ID]string, cases []*Case) *oracle {
	o := &oracle{ids: ids, relevant: map[string][]string{}, answers: map[string][]string{}}
	for _, k := range cases {
		o.relevant[caseKey(k.Query, k.RecentTools)] = k.Relevant
	}
	return o
}

// selector returns the oracle as a Selector that answers after latency.
// The answer is decided (and recorded) when the call starts, from the
// manifest alone, so it does not depend on whether the call completes.
func (o *oracle) selector(latency time.Duration) model.Selector {
	return model.SelectorFunc(func(ctx context.Context, req model.Request) ([]string, error) {
		keys := o.choose(req)
		return model.Delayed{Delay: latency, Inner: model.Scripted{Answer: keys}}.Select(ctx, req)
	})
}

// choose picks and records the answer to req.
func (o *oracle) choose(req model.Request) []string {
	key := caseKey(req.Query, req.RecentTools)
	rel := o.relevant[key]
	var keys, chosen []string
	if req.Manifest != nil {
		for _, mk := range req.Manifest.Keys() {
			id, ok := req.Manifest.Lookup(mk)
			if ok && slices.Contains(rel, o.ids[id]) && len(keys) < req.EffectiveLimit() {
				keys = append(keys, mk)
				chosen = append(chosen, o.ids[id])
			}
		}
	}
	o.mu.Lock()
	o.answers[key] = chosen
	o.mu.Unlock()
	return keys
}

func (o *oracle) answer(k *Case) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.answers[caseKey(k.Query, k.RecentTools)]
}
