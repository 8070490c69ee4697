package fsm_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/fsm"
	"github.com/memrecall/memrecall/telemetry"
)

func TestParseEventErrors(t *testing.T) {
	for _, line := range []string{
		"",
		"teleport plan=1",
		"abort plan",
		"abort plan=x",
		"abort at=soon",
		"selector_settled failed=maybe",
		"deterministic_published scanned=many",
		"abort colour=red",
		"selector_settled docs=a,,b",
		"selector_settled error=sparkle failed=true",
		// An error kind belongs to a failed settle only.
		"selector_settled plan=1 error=timeout",
		"selector_settled plan=1 failed=false error=timeout",
		"abort plan=1 error=timeout",
		"deterministic_published plan=1 error=http_status",
	} {
		if _, err := fsm.ParseEvent(line); !errors.Is(err, fsm.ErrBadEvent) {
			t.Errorf("ParseEvent(%q) = %v, want ErrBadEvent", line, err)
		}
	}
}

// TestParseEventErrorKind: an error kind is read on a failed settle
// whichever field comes first, and error=none is no error anywhere.
func TestParseEventErrorKind(t *testing.T) {
	for _, tc := range []struct {
		line string
		want fsm.Event
	}{
		{"selector_settled plan=1 at=1s failed=true took=1s error=timeout", fsm.SelectorFailedWith(1, 1e9, 1e9, telemetry.ErrorTimeout)},
		{"selector_settled plan=1 at=1s error=timeout took=1s failed=true", fsm.SelectorFailedWith(1, 1e9, 1e9, telemetry.ErrorTimeout)},
		{"selector_settled plan=1 at=1s failed=true took=1s", fsm.SelectorFailed(1, 1e9, 1e9)},
		{"abort plan=4 at=0s error=none", fsm.Abort(4, 0)},
	} {
		got, err := fsm.ParseEvent(tc.line)
		if err != nil {
			t.Errorf("ParseEvent(%q): %v", tc.line, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseEvent(%q) (-want +got):\n%s", tc.line, diff)
		}
	}
}

func TestEventStringRoundTrip(t *testing.T) {
	for _, ev := range []fsm.Event{
		fsm.QueryStarted(0),
		fsm.DeterministicPublished(3, 20e6, []fsm.DocID{"a", "b"}, 40, 5e6),
		fsm.DeterministicPublished(3, 20e6, nil, 0, 0),
		fsm.SelectorSettled(3, 1e9, 9e8, []fsm.DocID{"c"}),
		fsm.SelectorSettled(3, 1e9, 9e8, nil),
		fsm.SelectorFailed(3, 3e10, 3e10),
		fsm.SelectorFailedWith(3, 3e10, 3e10, telemetry.ErrorHTTPStatus),
		fsm.InitialPoint(3, 1),
		fsm.ToolResultPoint(3, 2),
		fsm.TurnEnded(3, 3),
		fsm.Abort(3, 4),
		fsm.Reset(5),
		fsm.Shutdown(6),
	} {
		got, err := fsm.ParseEvent(ev.String())
		if err != nil {
			t.Fatalf("%v: %v", ev, err)
		}
		if diff := cmp.Diff(ev, got); diff != "" {
			t.Errorf("%v does not read back:\n%s", ev, diff)
		}
	}
}

// FuzzParseEvent: whatever ParseEvent accepts prints to a line that
// parses back to the same event, and carries an error kind only on a
// failed settle.
func FuzzParseEvent(f *testing.F) {
	f.Add("deterministic_published plan=1 at=20ms docs=a,b,c scanned=40 took=5ms")
	f.Add("selector_settled plan=2 at=1.2s failed=true took=1s")
	f.Add("query_started at=0s")
	f.Fuzz(func(t *testing.T, line string) {
		ev, err := fsm.ParseEvent(line)
		if err != nil {
			return
		}
		if ev.Error != telemetry.ErrorNone && (ev.Trigger != fsm.TriggerSelectorSettled || !ev.Failed) {
			t.Fatalf("%q: accepted error kind %v on an event that is not a failed settle", line, ev.Error)
		}
		again, err := fsm.ParseEvent(ev.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", line, ev.String(), err)
		}
		if again.String() != ev.String() {
			t.Fatalf("%q: %q reads back as %q", line, ev.String(), again.String())
		}
	})
}
