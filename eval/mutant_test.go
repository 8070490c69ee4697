//go:build memrecall_mutant

package eval

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/memrecall/memrecall/recall"
)

// TestDeliveryCatchesMutants: each deliberately broken engine makes the
// delivery evaluation fail — its rows differ from the replay, or it
// counts duplicate or cross-query deliveries — so the delivery gates can
// fail. Run with: go test -tags memrecall_mutant -run Mutants ./eval/
func TestDeliveryCatchesMutants(t *testing.T) {
	c := loadFixture(t)
	// The engine run's cases, chosen by shape: the first 12 of the round
	// robin hold no turn whose selector adds to a fast delivery, the only
	// turn where repeat_fast shows (it passed with 12, 16 and 24 round-robin
	// cases; 40 caught it in about 9 s, these 13 in about 7 s).
	opts := DeliveryOptions{cases: shapedCases(t, c, engineCases), Conversations: true}
	replay, err := RunDelivery(context.Background(), c, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range recall.Mutants() {
		t.Run(m, func(t *testing.T) {
			var got *DeliveryResult
			synctest.Test(t, func(t *testing.T) {
				o := opts
				o.Engine = true
				o.start = func(opts recall.Options) *recall.Engine {
					eng, err := recall.NewMutant(opts, m)
					if err != nil {
						t.Fatal(err)
					}
					return eng
				}
				var err error
				got, err = RunDelivery(context.Background(), c, o)
				if err != nil {
					t.Fatal(err)
				}
			})
			bad := 0
			for _, r := range got.Rows {
				bad += r.Duplicates + r.CrossQuery
			}
			rows := cmp.Diff(replay.Rows, got.Rows) != ""
			conv := cmp.Diff(replay.transcripts, got.transcripts) != ""
			if !rows && !conv && bad == 0 {
				t.Errorf("mutant %s passes the delivery evaluation", m)
			} else {
				t.Logf("caught: %d duplicate or cross-query deliveries; rows differ: %v; conversations differ: %v", bad, rows, conv)
			}
		})
	}
}
