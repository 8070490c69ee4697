package eval

import (
	"context"
	"testing"
)

// BenchmarkRunQuality measures one quality run of the fixture: writing the
// tree, the scan and both scorers over every case.
func BenchmarkRunQuality(b *testing.B) {
	c := loadFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunQuality(context.Background(), c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunDelivery measures the delivery replay of the fixture (one
// engine per answerable case to collect rankings and selections, then
// every scenario on the lifecycle core).
func BenchmarkRunDelivery(b *testing.B) {
	c := loadFixture(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunDelivery(context.Background(), c, DeliveryOptions{Conversations: true}); err != nil {
			b.Fatal(err)
		}
	}
}
