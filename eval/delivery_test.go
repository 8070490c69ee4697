package eval

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
)

// deliveryRows runs the delivery evaluation of the fixture on the fake
// clock, with conversations.
func deliveryRows(t *testing.T) []DeliveryRow {
	t.Helper()
	c := loadFixture(t)
	var rows []DeliveryRow
	synctest.Test(t, func(t *testing.T) {
		var err error
		rows, err = RunDelivery(context.Background(), c, DeliveryOptions{Conversations: true})
		if err != nil {
			t.Fatalf("RunDelivery: %v", err)
		}
	})
	return rows
}

func TestDeliveryFixture(t *testing.T) {
	rows := deliveryRows(t)
	if len(rows) != 2*2*len(SelectorLatencies()) {
		t.Fatalf("%d rows, want one per design, turn kind and latency", len(rows))
	}
	for _, r := range rows {
		t.Logf("%-9s %-10s %5d ms  first %.2f (any %.2f)  delivered %.2f  dup %d  cross %d  wait %.1f ms",
			r.Design, r.Turn, r.SelectorMS, r.FirstTurn, r.FirstTurnAny, r.Delivered, r.Duplicates, r.CrossQuery, r.InitialWaitMS)
		if r.Duplicates != 0 {
			t.Errorf("%s %s %d ms: %d duplicate deliveries", r.Design, r.Turn, r.SelectorMS, r.Duplicates)
		}
		if r.CrossQuery != 0 {
			t.Errorf("%s %s %d ms: %d cross-query deliveries", r.Design, r.Turn, r.SelectorMS, r.CrossQuery)
		}
		if r.Design == DesignMemrecall && r.InitialWaitMS > 100 {
			t.Errorf("%s %d ms: initial wait %.1f ms exceeds the 100 ms ceiling", r.Turn, r.SelectorMS, r.InitialWaitMS)
		}
	}
	// The point of the design: on every scenario, memrecall puts memory
	// in the first request at least as often as zero-wait, and delivers
	// at least as often overall.
	get := func(design, turn string, ms int) DeliveryRow {
		for _, r := range rows {
			if r.Design == design && r.Turn == turn && r.SelectorMS == ms {
				return r
			}
		}
		t.Fatalf("no row %s %s %d", design, turn, ms)
		return DeliveryRow{}
	}
	for _, turn := range []string{TurnToolFree, TurnToolUsing} {
		for _, l := range SelectorLatencies() {
			ms := int(l.Milliseconds())
			mine, base := get(DesignMemrecall, turn, ms), get(DesignZeroWait, turn, ms)
			if mine.FirstTurn < base.FirstTurn || mine.Delivered < base.Delivered {
				t.Errorf("%s %d ms: memrecall first %.2f delivered %.2f < zero-wait %.2f / %.2f",
					turn, ms, mine.FirstTurn, mine.Delivered, base.FirstTurn, base.Delivered)
			}
		}
		// A tool-free turn has no later point: zero-wait delivers nothing.
		if r := get(DesignZeroWait, TurnToolFree, 3000); r.Delivered != 0 {
			t.Errorf("zero-wait tool-free 3000 ms delivered %.2f, want 0", r.Delivered)
		}
	}
	_ = fmt.Sprint
}
