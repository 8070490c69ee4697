package recall

import (
	"time"

	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/memory"
)

// fault is a set of deliberate defects. The property suite builds engines
// with one switched on (NewMutant in mutant.go, compiled only with the
// memrecall_mutant build tag) and fails unless its properties catch it,
// which shows the properties can fail.
//
// A production build has no fault branch: every check is has, or a call
// guarded by mutantsBuilt, a constant that is false without the tag
// (mutant_off.go), so the compiler folds the checks away and the linker
// drops the methods below. .ci/run checks the built binary's symbols.
type fault uint8

const (
	// faultStaleSettle lets a replaced plan's selector call run on and
	// applies its settle to the current plan (cross-query leakage).
	faultStaleSettle fault = 1 << iota
	// faultExtraDoc renders one more ranked document than the fsm
	// delivered (a third fast document, a sixth refined one).
	faultExtraDoc
	// faultRepeatFast renders the plan's fast documents again in its
	// refined delivery (double injection).
	faultRepeatFast
	// faultIgnoreCeiling makes Initial wait for the settle, however long
	// the selector takes (a liveness defect).
	faultIgnoreCeiling
)

// has reports whether defect x is switched on; always false, at compile
// time, without the memrecall_mutant tag.
func (f fault) has(x fault) bool { return mutantsBuilt && f&x != 0 }

// render is Plan.render's text step with the rendering defects applied:
// the documents of a delivery changed, and one more than MaxPromptDocs
// allowed. It returns the documents shown and the text.
// Called with the owner lock held.
func (f fault) render(docs []*memory.Document, p *Plan, refined bool, now time.Time) ([]*memory.Document, string) {
	docs = f.mutateDocs(docs, p, refined)
	limit := MaxPromptDocs
	if f.has(faultExtraDoc) {
		limit++
	}
	docs = docs[:min(len(docs), limit)]
	return docs, renderBlocks(docs, now, MaxPromptBytes)
}

// mutateDocs changes the documents of a delivery before rendering.
// Called with the owner lock held.
func (f fault) mutateDocs(docs []*memory.Document, p *Plan, refined bool) []*memory.Document {
	if f.has(faultRepeatFast) && refined {
		for _, id := range p.trace.Fast {
			if d := p.lookup(id); d != nil {
				docs = append([]*memory.Document{d}, docs...)
			}
		}
	}
	if f.has(faultExtraDoc) {
	next:
		for _, m := range p.ranked {
			for _, d := range docs {
				if d == m.Doc {
					continue next
				}
			}
			docs = append(docs, m.Doc)
			break
		}
	}
	return docs
}

// settleTarget and settleEvent decide which plan a settle is applied to.
// Without faults it is the plan that asked. Called with the owner lock held.
func (f fault) settleTarget(e *Engine, p *Plan) *Plan {
	if f.has(faultStaleSettle) && e.cur != nil && e.cur != p {
		// Make the old plan's documents renderable by the new one.
		e.cur.cands = append(e.cur.cands, p.cands...)
		for _, m := range p.ranked {
			e.cur.cands = append(e.cur.cands, m.Doc)
		}
		return e.cur
	}
	return p
}

func (f fault) settleEvent(e *Engine, ev fsm.Event) fsm.Event {
	if f.has(faultStaleSettle) && e.cur != nil {
		ev.Plan = e.cur.id
	}
	return ev
}
