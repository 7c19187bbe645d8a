package agent

import (
	"errors"

	"github.com/twosettle/twosettle/engine/session"
)

// Record appends d to Session id's log by hand (wire.AppendEvent): at the end of the
// log at the runtime's clock, persisted like any other event and reported to the
// Appended hooks (the questions projection, the reservations), so that what the log
// holds can be scripted where the runtime would never write it: a malformed recorded
// tool result, a turn end between a claim and its admission, noise on another Session.
// The runtime's own state (turns, steps, the inbox, running calls) does not change; the
// Session need not be live.
func (rt *Runtime) Record(id string, d session.Data) error {
	if d == nil {
		return errors.New("agent: record on " + id + ": no event")
	}
	s, err := rt.session(id)
	if err != nil {
		return err
	}
	s.append(d)
	return nil
}
