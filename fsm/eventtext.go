package fsm

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/memrecall/memrecall/telemetry"
)

// ErrBadEvent is returned by ParseEvent for a line that is not an event.
var ErrBadEvent = errors.New("fsm: bad event")

// String renders the event as one line of a scenario script, for example
//
//	deterministic_published plan=1 at=20ms docs=a,b,c scanned=40 took=5ms
//
// ParseEvent reads it back, so a failing random run prints a script that
// can be pasted into fsm/testdata.
func (e Event) String() string {
	var b strings.Builder
	b.WriteString(e.Trigger.String())
	if !e.Trigger.sessionWide() {
		fmt.Fprintf(&b, " plan=%d", e.Plan)
	}
	fmt.Fprintf(&b, " at=%s", e.At)
	switch e.Trigger {
	case TriggerDeterministicPublished:
		fmt.Fprintf(&b, " docs=%s scanned=%d took=%s", joinIDs(e.Docs), e.Scanned, e.Took)
	case TriggerSelectorSettled:
		if e.Failed {
			b.WriteString(" failed=true")
		} else {
			fmt.Fprintf(&b, " docs=%s", joinIDs(e.Docs))
		}
		fmt.Fprintf(&b, " took=%s", e.Took)
	}
	if e.Error != telemetry.ErrorNone {
		fmt.Fprintf(&b, " error=%s", e.Error)
	}
	return b.String()
}

func joinIDs(docs []DocID) string {
	var b strings.Builder
	for i, d := range docs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(d))
	}
	return b.String()
}

// ParseEvent reads one event in the form Event.String writes: a trigger
// name followed by key=value fields (plan, at, docs, failed, error,
// scanned, took), all optional. A missing plan is 0. Document IDs in docs are
// separated by commas and must be non-empty, without spaces or
// commas. An error kind other than none belongs to a failed settle only
// (selector_settled with failed=true, in any order): elsewhere it is
// ErrBadEvent, since the event would carry a kind nothing reads.
func ParseEvent(line string) (Event, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return Event{}, fmt.Errorf("%w: empty line", ErrBadEvent)
	}
	var ev Event
	for _, t := range Triggers {
		if t.String() == fields[0] {
			ev.Trigger = t
		}
	}
	if ev.Trigger == 0 {
		return Event{}, fmt.Errorf("%w: unknown trigger %q", ErrBadEvent, fields[0])
	}
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return Event{}, fmt.Errorf("%w: field %q is not key=value", ErrBadEvent, f)
		}
		var err error
		switch k {
		case "plan":
			var n uint64
			n, err = strconv.ParseUint(v, 10, 64)
			ev.Plan = PlanID(n)
		case "at":
			ev.At, err = time.ParseDuration(v)
		case "took":
			ev.Took, err = time.ParseDuration(v)
		case "scanned":
			ev.Scanned, err = strconv.Atoi(v)
		case "failed":
			ev.Failed, err = strconv.ParseBool(v)
		case "error":
			var ok bool
			if ev.Error, ok = telemetry.ParseErrorKind(v); !ok {
				err = fmt.Errorf("unknown error kind")
			}
		case "docs":
			ev.Docs = nil
			if v != "" {
				for _, d := range strings.Split(v, ",") {
					if d == "" {
						return Event{}, fmt.Errorf("%w: empty document id in %q", ErrBadEvent, f)
					}
					ev.Docs = append(ev.Docs, DocID(d))
				}
			}
		default:
			return Event{}, fmt.Errorf("%w: unknown field %q", ErrBadEvent, k)
		}
		if err != nil {
			return Event{}, fmt.Errorf("%w: field %q: %w", ErrBadEvent, f, err)
		}
	}
	if ev.Error != telemetry.ErrorNone && (ev.Trigger != TriggerSelectorSettled || !ev.Failed) {
		return Event{}, fmt.Errorf("%w: error=%s without failed=true on %s", ErrBadEvent, ev.Error, TriggerSelectorSettled)
	}
	return ev, nil
}
