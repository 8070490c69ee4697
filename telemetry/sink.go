package telemetry

// Sink receives telemetry. Implementations must be safe for concurrent
// use: one Sink is commonly shared by several engines, and must not block
// for long, because the engine calls it on its owner goroutine.
type Sink interface {
	Selection(Selection)
	Delivery(Delivery)
}

// Send writes events to sink in order. A nil sink drops them, so a host
// that does not want telemetry passes nothing.
func Send(sink Sink, events ...Event) {
	if sink == nil {
		return
	}
	for _, e := range events {
		e.SendTo(sink)
	}
}

// Discard is a Sink that drops every event.
type Discard struct{}

// Selection drops s.
func (Discard) Selection(Selection) {}

// Delivery drops d.
func (Discard) Delivery(Delivery) {}
