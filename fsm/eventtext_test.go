package fsm_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memrecall/memrecall/fsm"
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
	} {
		if _, err := fsm.ParseEvent(line); !errors.Is(err, fsm.ErrBadEvent) {
			t.Errorf("ParseEvent(%q) = %v, want ErrBadEvent", line, err)
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
// parses back to the same event.
func FuzzParseEvent(f *testing.F) {
	f.Add("deterministic_published plan=1 at=20ms docs=a,b,c scanned=40 took=5ms")
	f.Add("selector_settled plan=2 at=1.2s failed=true took=1s")
	f.Add("query_started at=0s")
	f.Fuzz(func(t *testing.T, line string) {
		ev, err := fsm.ParseEvent(line)
		if err != nil {
			return
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
