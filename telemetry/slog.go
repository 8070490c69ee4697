package telemetry

import (
	"context"
	"log/slog"
)

// Message texts of the slog records, stable for log queries.
const (
	SelectionMessage = "memrecall.selection"
	DeliveryMessage  = "memrecall.delivery"
)

// SlogSink writes each event as one Info record on a log/slog Logger. The
// attribute keys are the snake_case names of spec §6; durations are
// written as slog durations so handlers keep their unit.
type SlogSink struct {
	logger *slog.Logger
}

// Slog returns a Sink that logs to logger; a nil logger means
// slog.Default() at the time of each event.
func Slog(logger *slog.Logger) *SlogSink { return &SlogSink{logger: logger} }

func (s *SlogSink) log() *slog.Logger {
	if s.logger == nil {
		return slog.Default()
	}
	return s.logger
}

// Selection logs s.
func (s *SlogSink) Selection(e Selection) {
	s.log().LogAttrs(context.Background(), slog.LevelInfo, SelectionMessage, e.Attrs()...)
}

// Delivery logs d; discard_reason is present only on discards.
func (s *SlogSink) Delivery(e Delivery) {
	s.log().LogAttrs(context.Background(), slog.LevelInfo, DeliveryMessage, e.Attrs()...)
}

// Attrs returns the selection's attributes under the keys of spec §6.1,
// the one spelling the slog sink, the command line and its JSON use;
// selector_error is present only when the selector failed.
func (e Selection) Attrs() []slog.Attr {
	attrs := []slog.Attr{
		slog.String("strategy", e.Strategy.String()),
		slog.Int("documents_scanned", e.Scanned),
		slog.Int("documents_selected", e.Selected),
		slog.Duration("scan", e.Scan),
		slog.Duration("fast", e.Fast),
		slog.Duration("selector", e.Selector),
		slog.Duration("total", e.Total),
	}
	if e.Error != ErrorNone {
		attrs = append(attrs, slog.String("selector_error", e.Error.String()))
	}
	return attrs
}

// Attrs returns the delivery's attributes under the keys of spec §6.2;
// discard_reason is present only on discards.
func (e Delivery) Attrs() []slog.Attr {
	attrs := make([]slog.Attr, 0, 6)
	attrs = append(attrs,
		slog.String("phase", e.Phase.String()),
		slog.String("delivery_point", e.Point.String()),
	)
	if e.Reason != ReasonNone {
		attrs = append(attrs, slog.String("discard_reason", e.Reason.String()))
	}
	return append(attrs,
		slog.String("strategy", e.Strategy.String()),
		slog.Int("document_count", e.Docs),
		slog.Duration("latency", e.Latency),
	)
}

// Attrs returns the attributes of the payload Kind selects.
func (e Event) Attrs() []slog.Attr {
	if e.Kind == KindSelection {
		return e.Selection.Attrs()
	}
	return e.Delivery.Attrs()
}

// Message returns the slog message of the event's kind.
func (e Event) Message() string {
	if e.Kind == KindSelection {
		return SelectionMessage
	}
	return DeliveryMessage
}
