package telemetry

import "sync"

// Recorder is a Sink that keeps every event in order, for tests and
// evaluation. The zero value is ready to use; it is safe for concurrent
// use.
type Recorder struct {
	mu     sync.Mutex
	events []Event
}

// Selection records s.
func (r *Recorder) Selection(s Selection) { r.add(SelectionEvent(s)) }

// Delivery records d.
func (r *Recorder) Delivery(d Delivery) { r.add(DeliveryEvent(d)) }

func (r *Recorder) add(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// Events returns a copy of everything recorded, oldest first.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// Selections returns the recorded Selection events, oldest first.
func (r *Recorder) Selections() []Selection {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Selection
	for _, e := range r.events {
		if e.Kind == KindSelection {
			out = append(out, e.Selection)
		}
	}
	return out
}

// Deliveries returns the recorded Delivery events, oldest first.
func (r *Recorder) Deliveries() []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Delivery
	for _, e := range r.events {
		if e.Kind == KindDelivery {
			out = append(out, e.Delivery)
		}
	}
	return out
}

// Reset forgets everything recorded.
func (r *Recorder) Reset() {
	r.mu.Lock()
	r.events = nil
	r.mu.Unlock()
}
