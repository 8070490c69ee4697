package telemetry_test

import (
	"log/slog"
	"os"
	"time"

	"github.com/memrecall/memrecall/telemetry"
)

func ExampleSlog() {
	// A handler without the time attribute, so the output is stable.
	h := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})
	sink := telemetry.Slog(slog.New(h))
	sink.Delivery(telemetry.Delivery{
		Phase: telemetry.PhaseFast, Point: telemetry.PointInitial,
		Strategy: telemetry.StrategyHeuristic, Docs: 2, Latency: 30 * time.Millisecond,
	})
	// Output:
	// level=INFO msg=memrecall.delivery phase=fast delivery_point=initial strategy=heuristic document_count=2 latency=30ms
}
