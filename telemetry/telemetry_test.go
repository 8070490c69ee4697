package telemetry_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/telemetry"
)

// TestEventsCannotCarryText is the privacy guarantee of spec §6.3 made
// structural: every field of an event is an integer kind (enum, count or
// duration). A string, slice, map, pointer, interface or nested struct
// could carry query text, content, paths or error text, so adding one
// fails here.
func TestEventsCannotCarryText(t *testing.T) {
	for _, v := range []any{telemetry.Selection{}, telemetry.Delivery{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			f := typ.Field(i)
			switch f.Type.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			default:
				t.Errorf("%s.%s has kind %s: only enums, counts and durations may be recorded", typ.Name(), f.Name, f.Type.Kind())
			}
		}
	}
	// Event only wraps the two payloads.
	typ := reflect.TypeOf(telemetry.Event{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		switch f.Type {
		case reflect.TypeOf(telemetry.Kind(0)), reflect.TypeOf(telemetry.Selection{}), reflect.TypeOf(telemetry.Delivery{}):
		default:
			t.Errorf("Event.%s has type %s", f.Name, f.Type)
		}
	}
}

func TestEnumNames(t *testing.T) {
	got := []string{
		telemetry.StrategyNone.String(), telemetry.StrategyHeuristic.String(), telemetry.StrategyModel.String(),
		telemetry.PhaseFast.String(), telemetry.PhaseRefined.String(),
		telemetry.PointInitial.String(), telemetry.PointToolResult.String(), telemetry.PointDiscarded.String(),
		telemetry.ReasonNone.String(),
		telemetry.ReasonNoSafeDeliveryPoint.String(), telemetry.ReasonNewQuery.String(), telemetry.ReasonReset.String(),
		telemetry.ReasonAbort.String(), telemetry.ReasonShutdown.String(), telemetry.ReasonNoRelevantResults.String(),
		telemetry.ReasonAlreadyDelivered.String(),
		telemetry.Phase(0).String(), telemetry.DeliveryPoint(0).String(), telemetry.Strategy(9).String(),
		telemetry.DiscardReason(99).String(), telemetry.Kind(0).String(),
	}
	want := []string{
		"none", "heuristic", "model",
		"fast", "refined",
		"initial", "tool_result", "discarded",
		"",
		"no_safe_delivery_point", "new_query", "reset",
		"abort", "shutdown", "no_relevant_results",
		"already_delivered",
		"Phase(0)", "DeliveryPoint(0)", "Strategy(9)",
		"DiscardReason(99)", "Kind(0)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestEventString(t *testing.T) {
	tests := []struct {
		ev   telemetry.Event
		want string
	}{
		{telemetry.SelectionEvent(telemetry.Selection{Strategy: telemetry.StrategyModel, Scanned: 120, Selected: 3,
			Scan: 12 * time.Millisecond, Fast: 30 * time.Millisecond, Selector: time.Second, Total: 1030 * time.Millisecond}),
			"selection strategy=model scanned=120 selected=3 scan=12ms fast=30ms selector=1s total=1.03s"},
		{telemetry.DeliveryEvent(telemetry.Delivery{Phase: telemetry.PhaseFast, Point: telemetry.PointInitial,
			Strategy: telemetry.StrategyHeuristic, Docs: 2, Latency: 30 * time.Millisecond}),
			"delivery phase=fast point=initial strategy=heuristic docs=2 latency=30ms"},
		{telemetry.DeliveryEvent(telemetry.Delivery{Phase: telemetry.PhaseRefined, Point: telemetry.PointDiscarded,
			Reason: telemetry.ReasonNewQuery, Latency: 5 * time.Second}),
			"delivery phase=refined point=discarded reason=new_query strategy=none docs=0 latency=5s"},
		{telemetry.Event{}, "event kind=Kind(0)"},
	}
	for _, tc := range tests {
		if got := tc.ev.String(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

func TestSlogSink(t *testing.T) {
	var buf bytes.Buffer
	sink := telemetry.Slog(slog.New(slog.NewJSONHandler(&buf, nil)))
	telemetry.Send(sink,
		telemetry.SelectionEvent(telemetry.Selection{Strategy: telemetry.StrategyHeuristic, Scanned: 7, Selected: 5,
			Scan: time.Millisecond, Fast: 2 * time.Millisecond, Selector: 30 * time.Second, Total: 30 * time.Second, Error: telemetry.ErrorTimeout}),
		telemetry.DeliveryEvent(telemetry.Delivery{Phase: telemetry.PhaseRefined, Point: telemetry.PointDiscarded,
			Reason: telemetry.ReasonNoSafeDeliveryPoint, Strategy: telemetry.StrategyModel, Latency: 4 * time.Second}),
		telemetry.DeliveryEvent(telemetry.Delivery{Phase: telemetry.PhaseFast, Point: telemetry.PointInitial,
			Strategy: telemetry.StrategyHeuristic, Docs: 2, Latency: 25 * time.Millisecond}),
	)
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		delete(m, "time")
		got = append(got, m)
	}
	want := []map[string]any{
		{"level": "INFO", "msg": "memrecall.selection", "strategy": "heuristic", "documents_scanned": 7.0,
			"documents_selected": 5.0, "scan": 1e6, "fast": 2e6, "selector": 30e9, "total": 30e9, "selector_error": "timeout"},
		{"level": "INFO", "msg": "memrecall.delivery", "phase": "refined", "delivery_point": "discarded",
			"discard_reason": "no_safe_delivery_point", "strategy": "model", "document_count": 0.0, "latency": 4e9},
		{"level": "INFO", "msg": "memrecall.delivery", "phase": "fast", "delivery_point": "initial",
			"strategy": "heuristic", "document_count": 2.0, "latency": 25e6},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestSlogSinkNilLoggerUsesDefault(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(old)
	telemetry.Slog(nil).Delivery(telemetry.Delivery{Phase: telemetry.PhaseFast, Point: telemetry.PointInitial})
	if !strings.Contains(buf.String(), "msg=memrecall.delivery") {
		t.Errorf("default logger got %q", buf.String())
	}
}

func TestRecorder(t *testing.T) {
	var r telemetry.Recorder
	sel := telemetry.Selection{Strategy: telemetry.StrategyModel, Selected: 1}
	del := telemetry.Delivery{Phase: telemetry.PhaseRefined, Point: telemetry.PointToolResult, Docs: 1}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			telemetry.Send(&r, telemetry.SelectionEvent(sel), telemetry.DeliveryEvent(del))
		})
	}
	wg.Wait()
	if n := len(r.Events()); n != 8 {
		t.Fatalf("recorded %d events, want 8", n)
	}
	if diff := cmp.Diff([]telemetry.Selection{sel, sel, sel, sel}, r.Selections()); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]telemetry.Delivery{del, del, del, del}, r.Deliveries()); diff != "" {
		t.Error(diff)
	}
	r.Reset()
	if len(r.Events()) != 0 {
		t.Error("Reset kept events")
	}
}

func TestSendToNilAndDiscard(t *testing.T) {
	telemetry.Send(nil, telemetry.DeliveryEvent(telemetry.Delivery{}))
	telemetry.Send(telemetry.Discard{}, telemetry.SelectionEvent(telemetry.Selection{}), telemetry.DeliveryEvent(telemetry.Delivery{}))
	var r telemetry.Recorder
	telemetry.Event{}.SendTo(&r) // unknown kind: not sent
	if len(r.Events()) != 0 {
		t.Error("an event of unknown kind was sent")
	}
}

func TestErrorKindNames(t *testing.T) {
	seen := map[string]bool{}
	for k := telemetry.ErrorNone; k <= telemetry.ErrorRedirect; k++ {
		s := k.String()
		if s == "" || seen[s] {
			t.Errorf("ErrorKind %d: empty or repeated name %q", k, s)
		}
		seen[s] = true
		if got, ok := telemetry.ParseErrorKind(s); !ok || got != k {
			t.Errorf("ParseErrorKind(%q) = %v, %v", s, got, ok)
		}
	}
	if _, ok := telemetry.ParseErrorKind("nonsense"); ok {
		t.Error("ParseErrorKind accepted an unknown name")
	}
	if s := telemetry.ErrorKind(200).String(); s != "ErrorKind(200)" {
		t.Errorf("out-of-range kind prints %q", s)
	}
	got := telemetry.Selection{Strategy: telemetry.StrategyHeuristic, Error: telemetry.ErrorHTTPStatus}.String()
	if !strings.HasSuffix(got, " error=http_status") {
		t.Errorf("Selection.String() = %q, want it to end with the error kind", got)
	}
}
